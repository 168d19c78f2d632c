/**
 * The access token for API calls, read without loading oidc-client-ts (lib/auth.ts, about 20 KB
 * gzipped) or asking GET /api/config: a signed-in page needs neither until the token is about to
 * expire, so the first screen after sign-in loads neither.
 *
 * lib/auth.ts keeps the OIDC user in localStorage through the library's WebStorageStateStore
 * (`oidc.user:<authority>:<client_id>`, the JSON of User.toStorageString) and notes that key here
 * when it makes its UserManager. Whenever this reading finds no user, or one whose token expires
 * within RENEW_WITHIN_SECONDS, lib/auth.ts is loaded and decides, exactly as before: so the worst
 * a change of the library's storage could do is make every call take the full path.
 */
import { KEYS, readJson, writeJson } from './storage';

/** SPEC.md §9: check every 50 s, renew when under 5 s remain. */
const RENEWAL_CHECK_MS = 50_000;
const RENEW_WITHIN_SECONDS = 5;

/** The fields of the stored OIDC user that this reading needs. */
interface StoredUser {
  access_token?: string;
  /** Seconds since the epoch. */
  expires_at?: number;
}

const loadAuth = () => import('./auth');

/** Called by lib/auth.ts with its UserManager's settings. */
export function rememberUserStore(authority: string, clientId: string): void {
  writeJson(KEYS.oidcUserStore, `oidc.user:${authority}:${clientId}`);
}

function storedUser(): StoredUser | null {
  const key = readJson<string>(KEYS.oidcUserStore);
  return key ? readJson<StoredUser>(key) : null;
}

/** Whether a signed-in user is stored, as far as this reading can tell. */
export const hasStoredUser = (): boolean => storedUser() !== null;

/** As oidc-client-ts's User.expires_in: whole seconds left, none without an expiry. */
export function needsRenewal(expiresIn: number | undefined): boolean {
  return (expiresIn ?? Number.POSITIVE_INFINITY) < RENEW_WITHIN_SECONDS;
}

const secondsLeft = (user: StoredUser) => (user.expires_at === undefined ? undefined : user.expires_at - Math.floor(Date.now() / 1000));

/** The access token for an API call, renewed first when it is about to expire. */
export async function getAccessToken(): Promise<string | null> {
  const user = storedUser();
  if (user?.access_token && !needsRenewal(secondsLeft(user))) return user.access_token;
  return (await loadAuth()).getAccessToken();
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
