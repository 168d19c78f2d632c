/**
 * The access token for API calls, read without loading oidc-client-ts (lib/auth.ts, about 20 KB
 * gzipped) or asking GET /api/config: a signed-in page needs neither until the token is about to
 * expire, so the first screen after sign-in loads neither.
 *
 * The token is read from the OIDC user the library keeps in localStorage (lib/stored-user.ts).
 * Whenever this reading finds no user, or one whose token needs renewal, lib/auth.ts is loaded and
 * decides, exactly as before: so the worst a change of the library's storage could do is make every
 * call take the full path. The dependency runs one way: this module loads lib/auth.ts, which never
 * imports it back.
 */
import { needsRenewal, storedUser, type StoredUser } from './stored-user';

/** SPEC.md §9: check every 50 s (lib/stored-user.ts: renew when under 5 s remain). */
const RENEWAL_CHECK_MS = 50_000;

const loadAuth = () => import('./auth');

/** Whether a signed-in user is stored, as far as this reading can tell. */
export const hasStoredUser = (): boolean => storedUser() !== null;

const secondsLeft = (user: StoredUser) => (user.expires_at === undefined ? undefined : user.expires_at - Math.floor(Date.now() / 1000));

/** The access token for an API call, renewed first when it is about to expire. */
export async function getAccessToken(): Promise<string | null> {
  const user = storedUser();
  if (user?.access_token && !needsRenewal(secondsLeft(user))) return user.access_token;
  return (await loadAuth()).getAccessToken();
}

/**
 * The ID token of the session this access token belongs to, for the API to read the person from
 * when the access token lacks them (DECISIONS.md "Sign-in"); none for a token of another session.
 */
export function idTokenOf(accessToken: string): string | null {
  const user = storedUser();
  return user?.access_token === accessToken ? (user.id_token ?? null) : null;
}

/** Forget the tokens without asking the provider (a token the API no longer accepts). */
export async function dropUser(): Promise<void> {
  await (await loadAuth()).dropUser();
}

let renewalTimer: ReturnType<typeof setInterval> | null = null;

export function startTokenRenewal(): void {
  if (renewalTimer) return;
  renewalTimer = setInterval(() => {
    const user = storedUser();
    if (user && needsRenewal(secondsLeft(user))) void loadAuth().then((auth) => auth.renewToken()).catch(() => undefined);
  }, RENEWAL_CHECK_MS);
}
