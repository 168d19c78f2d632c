/**
 * Client state of SPEC.md §3: the member profile (the signed-in user), the current
 * organization, the return URL and the sign-in error. The access token itself lives in
 * the OIDC user that lib/auth.ts keeps. Profile and organization persist in localStorage so a
 * reload keeps the session; the return URL and the error only for this tab.
 */
import { useSyncExternalStore } from 'react';
import type { Profile } from '../../common/schemas/profile';
import type { Organization } from '../../common/schemas/organization';
import { KEYS, readJson, remove, writeJson } from './storage';

export interface SessionState {
  profile: Profile | null;
  organization: Organization | null;
  authError: string | null;
}

export const AUTH_FAILED = 'Auth failed. Unknown error occurred';

let state: SessionState = {
  profile: readJson<Profile>(KEYS.profile),
  organization: readJson<Organization>(KEYS.organization),
  authError: readJson<string>(KEYS.authError, 'session'),
};

const listeners = new Set<() => void>();

function update(patch: Partial<SessionState>): void {
  state = { ...state, ...patch };
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

// Another tab signing out or switching organization is seen here too.
if (typeof window !== 'undefined') {
  window.addEventListener('storage', (event) => {
    if (event.key === KEYS.profile) update({ profile: readJson<Profile>(KEYS.profile) });
    if (event.key === KEYS.organization) update({ organization: readJson<Organization>(KEYS.organization) });
  });
}

export const session = {
  get: (): SessionState => state,
  subscribe,

  setProfile(profile: Profile | null): void {
    writeJson(KEYS.profile, profile);
    update({ profile });
  },

  setOrganization(organization: Organization | null): void {
    writeJson(KEYS.organization, organization);
    update({ organization });
  },

  setAuthError(message: string | null): void {
    writeJson(KEYS.authError, message, 'session');
    update({ authError: message });
  },

  /** Forget the signed-in member (sign-out, or a session the server no longer accepts). */
  clear(): void {
    remove(KEYS.profile);
    remove(KEYS.organization);
    update({ profile: null, organization: null });
  },

  /** Where to go after the next sign-in (SPEC.md §3 "return URL"). */
  setReturnUrl(url: string | null): void {
    writeJson(KEYS.returnUrl, url, 'session');
  },

  takeReturnUrl(): string | null {
    const url = readJson<string>(KEYS.returnUrl, 'session');
    remove(KEYS.returnUrl, 'session');
    return url;
  },

  /**
   * Set on sign-out: /login then shows the Welcome screen with a Sign in button instead of
   * starting a new sign-in at once (the provider's session would sign the person straight back in).
   */
  setLoggedOut(loggedOut: boolean): void {
    writeJson(KEYS.loggedOut, loggedOut || null, 'session');
  },

  isLoggedOut(): boolean {
    return readJson<boolean>(KEYS.loggedOut, 'session') === true;
  },
};

export function useSession(): SessionState {
  return useSyncExternalStore(subscribe, session.get, session.get);
}

export function useProfile(): Profile | null {
  return useSession().profile;
}

export function useCurrentOrganization(): Organization | null {
  return useSession().organization;
}
