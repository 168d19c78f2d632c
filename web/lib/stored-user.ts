/**
 * The OIDC user that oidc-client-ts keeps in localStorage, read without loading the library.
 *
 * lib/auth.ts keeps the user through the library's WebStorageStateStore
 * (`oidc.user:<authority>:<client_id>`, the JSON of User.toStorageString) and notes that key here
 * when it makes its UserManager; lib/access-token.ts reads the token through it. Both ask
 * needsRenewal when a token is about to expire. Imported by both, importing neither: lib/auth.ts
 * (oidc-client-ts, about 20 KB gzipped) stays a module that lib/access-token.ts loads on demand.
 */
import { KEYS, readJson, writeJson } from './storage';

/** SPEC.md §9: renew when under 5 s remain. */
const RENEW_WITHIN_SECONDS = 5;

/** The fields of the stored OIDC user that the reading without the library needs. */
export interface StoredUser {
  access_token?: string;
  /** Sent with the access token (X-Id-Token): it tells the API who signed in when the access token does not. */
  id_token?: string;
  /** Seconds since the epoch. */
  expires_at?: number;
}

/** Called by lib/auth.ts with its UserManager's settings. */
export function rememberUserStore(authority: string, clientId: string): void {
  writeJson(KEYS.oidcUserStore, `oidc.user:${authority}:${clientId}`);
}

/** The stored user, as far as this reading can tell; null when none is (or no store is noted yet). */
export function storedUser(): StoredUser | null {
  const key = readJson<string>(KEYS.oidcUserStore);
  return key ? readJson<StoredUser>(key) : null;
}

/** As oidc-client-ts's User.expires_in: whole seconds left, none without an expiry. */
export function needsRenewal(expiresIn: number | undefined): boolean {
  return (expiresIn ?? Number.POSITIVE_INFINITY) < RENEW_WITHIN_SECONDS;
}
