/**
 * Strict verification of bearer access tokens: signature against the issuer's keys, an
 * allow-list of algorithms, issuer, audience, expiry and not-before, and (for the built-in
 * provider) the access-token type (DECISIONS.md "Sign-in").
 */
import { createRemoteJWKSet, decodeJwt, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from 'jose';

const ALLOWED_ALGORITHMS = ['RS256', 'PS256', 'ES256', 'EdDSA'];

export interface Identity {
  subject: string;
  email: string;
  email_verified: boolean;
  name: string | null;
  given_name: string | null;
  family_name: string | null;
}

export interface TokenVerifier {
  verify(token: string): Promise<Identity>;
}

export interface VerifierOptions {
  issuer: string;
  audience: string;
  keys: JWTVerifyGetKey;
  /** Asked for the person's claims when the access token lacks the email or its verification. */
  userinfo?: (token: string) => Promise<JWTPayload>;
  clockTolerance?: number;
  /** The header `typ` required (RFC 9068 `at+jwt`): keeps ID tokens out where the provider sets it. */
  typ?: string;
  /** The claim that says the email is verified; `email_verified` unless a provider names it otherwise. */
  emailVerifiedClaim?: string;
  /** Every email of this provider counts as verified (for providers without such a claim). */
  trustEmail?: boolean;
}

const text = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : null);

/** A verification claim says yes: `true`, or the string "true" that some providers send. */
const affirmed = (v: unknown) => v === true || (typeof v === 'string' && v.trim().toLowerCase() === 'true');

export function createVerifier(options: VerifierOptions): TokenVerifier {
  const verifiedClaim = options.emailVerifiedClaim ?? 'email_verified';
  return {
    async verify(token) {
      const { payload } = await jwtVerify(token, options.keys, {
        issuer: options.issuer,
        audience: options.audience,
        algorithms: ALLOWED_ALGORITHMS,
        requiredClaims: ['exp', 'sub'],
        clockTolerance: options.clockTolerance ?? 5,
        typ: options.typ,
      });
      const complete = text(payload.email) && (options.trustEmail || payload[verifiedClaim] !== undefined);
      const claims = complete || !options.userinfo ? payload : { ...payload, ...(await options.userinfo(token)) };
      const email = text(claims.email);
      if (!email) throw new Error('token carries no email');
      return {
        subject: String(payload.sub),
        email: email.toLowerCase(),
        email_verified: options.trustEmail === true || affirmed(claims[verifiedClaim]),
        name: text(claims.name),
        given_name: text(claims.given_name),
        family_name: text(claims.family_name),
      };
    },
  };
}

/** For an external provider: keys and userinfo endpoint from its discovery document. */
export async function discoverVerifier(
  issuer: string,
  audience: string,
  email: Pick<VerifierOptions, 'emailVerifiedClaim' | 'trustEmail'> = {},
): Promise<TokenVerifier> {
  const response = await fetch(`${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`);
  if (!response.ok) throw new Error(`OIDC discovery at ${issuer} answered ${response.status}`);
  const metadata = (await response.json()) as { jwks_uri: string; userinfo_endpoint?: string; issuer: string };
  const userinfoEndpoint = metadata.userinfo_endpoint;
  return createVerifier({
    ...email,
    issuer: metadata.issuer,
    audience,
    keys: createRemoteJWKSet(new URL(metadata.jwks_uri)),
    userinfo: userinfoEndpoint
      ? async (token) => {
          const r = await fetch(userinfoEndpoint, { headers: { authorization: `Bearer ${token}` } });
          if (!r.ok) throw new Error(`userinfo answered ${r.status}`);
          return (await r.json()) as JWTPayload;
        }
      : undefined,
  });
}

/**
 * Remembers tokens it has verified until they expire, so a session's calls verify their token
 * (and, for some providers, ask userinfo) once instead of on every request. Safe because a
 * verified token stays valid until its `exp`; bans and role changes are decided per call from
 * the member, not the token (auth/actor.ts).
 */
export function cachingVerifier(verifier: TokenVerifier, limit = 10_000): TokenVerifier {
  const verified = new Map<string, { identity: Identity; expiresAt: number }>();
  return {
    async verify(token) {
      const hit = verified.get(token);
      if (hit && Date.now() < hit.expiresAt) return hit.identity;
      const identity = await verifier.verify(token);
      const exp = decodeJwt(token).exp;
      if (typeof exp === 'number') {
        if (verified.size >= limit) verified.clear();
        verified.set(token, { identity, expiresAt: exp * 1000 });
      }
      return identity;
    },
  };
}
