/**
 * Browser storage with JSON values. Storage can be unavailable or full (private windows,
 * quotas); the app then keeps working for the current page and forgets on reload.
 */
type Area = 'local' | 'session';

function area(which: Area): Storage | null {
  try {
    return which === 'local' ? window.localStorage : window.sessionStorage;
  } catch {
    return null;
  }
}

export function readJson<T>(key: string, which: Area = 'local'): T | null {
  const text = area(which)?.getItem(key);
  if (!text) return null;
  try {
    return JSON.parse(text) as T;
  } catch {
    return null;
  }
}

export function writeJson(key: string, value: unknown, which: Area = 'local'): void {
  try {
    if (value === null || value === undefined) area(which)?.removeItem(key);
    else area(which)?.setItem(key, JSON.stringify(value));
  } catch {
    // Quota exceeded or storage disabled: keep the in-memory state only.
  }
}

export function remove(key: string, which: Area = 'local'): void {
  try {
    area(which)?.removeItem(key);
  } catch {
    // Storage disabled: nothing to remove.
  }
}

/** The keys the app uses, in one place. */
export const KEYS = {
  profile: 'portal.user',
  organization: 'portal.organization',
  returnUrl: 'portal.returnUrl',
  authError: 'portal.authError',
  loggedOut: 'portal.loggedOut',
  signInAttempts: 'portal.signInAttempts',
  /** Where oidc-client-ts keeps the signed-in user (lib/stored-user.ts). */
  oidcUserStore: 'portal.oidcUserStore',
} as const;
