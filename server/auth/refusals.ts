/**
 * Why a call was refused at sign-in, as a metric label (portal_auth_refusals_total): a short fixed
 * word from jose's error codes and the refusals of auth/actor.ts, never the message itself.
 */
import { HttpError } from '../errors';
import { UNVERIFIED_EMAIL } from './actor';
import { UnresolvedIdentity } from './tokens';

const JOSE_REASONS: Record<string, string> = {
  ERR_JWT_EXPIRED: 'expired',
  ERR_JWS_SIGNATURE_VERIFICATION_FAILED: 'bad_signature',
  ERR_JWKS_NO_MATCHING_KEY: 'unknown_key',
  ERR_JWKS_MULTIPLE_MATCHING_KEYS: 'unknown_key',
  ERR_JOSE_ALG_NOT_ALLOWED: 'bad_algorithm',
  ERR_JWS_INVALID: 'malformed',
  ERR_JWT_INVALID: 'malformed',
  ERR_JWKS_TIMEOUT: 'provider_unreachable',
};

/** A token that did not verify (auth/tokens.ts). */
export function tokenRefusal(error: unknown): string {
  const { code, claim, message } = error as { code?: string; claim?: string; message?: string };
  if (code === 'ERR_JWT_CLAIM_VALIDATION_FAILED') return claim === 'iss' ? 'wrong_issuer' : claim === 'aud' ? 'wrong_audience' : claim === 'nbf' ? 'not_yet_valid' : 'invalid_claim';
  if (code && JOSE_REASONS[code]) return JOSE_REASONS[code];
  if (error instanceof UnresolvedIdentity) return 'no_email';
  if (/^userinfo|fetch failed|OIDC discovery/.test(message ?? '') || (error as Error).name === 'TimeoutError') return 'provider_unreachable';
  return 'invalid_token';
}

/** A verified person the portal does not let in (auth/actor.ts resolveActor); null for other errors. */
export function memberRefusal(error: unknown): string | null {
  if (!(error instanceof HttpError) || error.statusCode !== 403) return null;
  if (error.message === UNVERIFIED_EMAIL) return 'email_not_verified';
  if (error.extra.redirect === 'AuthWelcome') return 'unknown_member';
  if (error.message === 'Your membership is banned.') return 'member_banned';
  return 'organization_banned';
}
