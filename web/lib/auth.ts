/**
 * Sign-in with oidc-client-ts: authorization code + PKCE against the provider named by
 * GET /api/config, renewal with the refresh-token grant (SPEC.md §4, §9).
 *
 * The OIDC user (with the access and refresh tokens) lives in localStorage, so a reload keeps
 * the session. Renewal is ours rather than the library's automatic one, as SPEC.md §9 times it:
 * every 50 s check, renew when under 5 s remain; the API client also renews on demand before a
 * call, so a token never leaves expired between two checks.
 *
 * The first screen does not load this module: lib/access-token.ts reads a valid token from the
 * store (lib/stored-user.ts) and the renewal timer runs there; both come here when there is work
 * for the library.
 */
import { ErrorResponse, UserManager, WebStorageStateStore, type User } from 'oidc-client-ts';
import type { ClientSettings } from '../../common/schemas/profile';
import { KEYS, readJson, remove, writeJson } from './storage';
import { PATHS } from './navigation';
import { needsRenewal as expiresSoon, rememberUserStore } from './stored-user';
import { loadClientSettings, loadProviderMetadata, type ProviderMetadata } from './client-settings';
/** Stored callback state lasts 1 hour; provider messages time out after 10000 ms (SPEC.md §9). */
const STALE_STATE_SECONDS = 3600;
const REQUEST_TIMEOUT_SECONDS = 10;

/** Sign-ins started within this window count towards the loop guard. */
const LOOP_WINDOW_MS = 60_000;
const LOOP_LIMIT = 3;

export class SignInLoopError extends Error {
  constructor() {
    super('Sign-in keeps failing');
  }
}

let managerPromise: Promise<UserManager> | null = null;

function createManager(settings: ClientSettings, metadata: ProviderMetadata | null): UserManager {
  const origin = window.location.origin;
  const store = new WebStorageStateStore({ store: window.localStorage });
  const manager = new UserManager({
    authority: settings.authority,
    // Fetched ahead (lib/client-settings.ts); without it the library fetches it itself.
    metadata: metadata ?? undefined,
    client_id: settings.client_id,
    scope: settings.scope,
    response_type: 'code',
    redirect_uri: `${origin}${PATHS.authCallback}`,
    silent_redirect_uri: `${origin}${PATHS.authSilent}`,
    post_logout_redirect_uri: `${origin}${PATHS.login}`,
    userStore: store,
    stateStore: store,
    automaticSilentRenew: false,
    monitorSession: false,
    loadUserInfo: false,
    staleStateAgeInSeconds: STALE_STATE_SECONDS,
    requestTimeoutInSeconds: REQUEST_TIMEOUT_SECONDS,
    silentRequestTimeoutInSeconds: REQUEST_TIMEOUT_SECONDS,
    // Providers that issue access tokens per API (Auth0 and the like) need the audience asked
    // for; the others ignore unknown authorization parameters.
    extraQueryParams: settings.audience ? { audience: settings.audience } : undefined,
  });
  void manager.clearStaleState().catch(() => undefined);
  rememberUserStore(settings.authority, settings.client_id);
  return manager;
}

export function getUserManager(): Promise<UserManager> {
  managerPromise ??= Promise.all([loadClientSettings(), loadProviderMetadata()])
    .then(([settings, metadata]) => createManager(settings, metadata))
    .catch((error: unknown) => {
      managerPromise = null; // try again on the next call
      throw error;
    });
  return managerPromise;
}

export async function getUser(): Promise<User | null> {
  return (await getUserManager()).getUser();
}

const needsRenewal = (user: User) => expiresSoon(user.expires_in);

/** The provider refused the refresh token (OAuth error body, or a bare 400). */
function refused(error: unknown): boolean {
  return error instanceof ErrorResponse || (error instanceof Error && /\(400\)/.test(error.message));
}

let renewing: Promise<User | null> | null = null;

/**
 * Renew with the refresh-token grant. Without a refresh token there is nothing to do: the
 * iframe-based silent sign-in is not used (the provider forbids being framed). A refusal (400)
 * clears the user (SPEC.md §8); the next call then answers 401 and leads to sign-in.
 */
export function renewToken(): Promise<User | null> {
  renewing ??= (async () => {
    const manager = await getUserManager();
    const user = await manager.getUser();
    if (!user?.refresh_token) return user;
    try {
      return await manager.signinSilent();
    } catch (error) {
      if (refused(error)) {
        await manager.removeUser();
        return null;
      }
      return user; // a network hiccup: keep the token, the next check tries again
    }
  })().finally(() => {
    renewing = null;
  });
  return renewing;
}

/** The access token for an API call, renewed first when it is about to expire. */
export async function getAccessToken(): Promise<string | null> {
  let user = await getUser();
  if (user && needsRenewal(user)) user = await renewToken();
  return user?.access_token ?? null;
}

/** Loop guard: a provider that signs people in while the API keeps refusing them. */
function countSignInAttempt(): void {
  const now = Date.now();
  const recent = (readJson<number[]>(KEYS.signInAttempts, 'session') ?? []).filter((t) => now - t < LOOP_WINDOW_MS);
  if (recent.length >= LOOP_LIMIT) throw new SignInLoopError();
  writeJson(KEYS.signInAttempts, [...recent, now], 'session');
}

export function resetSignInAttempts(): void {
  remove(KEYS.signInAttempts, 'session');
}

/** Leaves the app for the provider's sign-in page. */
export async function signIn(returnUrl: string | null): Promise<void> {
  countSignInAttempt();
  const manager = await getUserManager();
  await manager.signinRedirect({ state: { returnUrl } });
}

/** Completes the redirect back from the provider; answers the return URL given to signIn. */
export async function completeSignIn(): Promise<string | null> {
  const manager = await getUserManager();
  const user = await manager.signinRedirectCallback();
  const state = user.state as { returnUrl?: string | null } | undefined;
  return state?.returnUrl ?? null;
}

/** For a provider that does use the silent iframe; harmless otherwise. */
export async function completeSilentSignIn(): Promise<void> {
  const manager = await getUserManager();
  await manager.signinSilentCallback();
}

/** Forget the tokens without asking the provider (a token the API no longer accepts). */
export async function dropUser(): Promise<void> {
  await (await getUserManager()).removeUser();
}

/**
 * Signs out at the provider, which returns to /login. Falls back to a local sign-out when the
 * provider has no end-session endpoint or cannot be reached; the answer says which happened.
 */
export async function signOut(): Promise<'redirected' | 'local'> {
  let manager: UserManager;
  try {
    manager = await getUserManager();
  } catch {
    return 'local';
  }
  const user = await manager.getUser();
  if (!user) return 'local';
  try {
    await manager.revokeTokens(['refresh_token']);
  } catch {
    // No revocation endpoint, or the token is already gone: the sign-out goes on.
  }
  try {
    await manager.signoutRedirect({ post_logout_redirect_uri: `${window.location.origin}${PATHS.login}` });
    return 'redirected';
  } catch {
    await manager.removeUser();
    return 'local';
  }
}
