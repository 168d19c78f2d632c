/**
 * Strict verification of bearer access tokens: signature against the issuer's keys, an
 * allow-list of algorithms, issuer, audience and expiry (DECISIONS.md "Sign-in").
 */
import { createRemoteJWKSet, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from 'jose';

export const ALLOWED_ALGORITHMS = ['RS256', 'PS256', 'ES256', 'EdDSA'];

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
  /** Asked for the person's claims when the access token carries no email (some providers omit it). */
  userinfo?: (token: string) => Promise<JWTPayload>;
  clockTolerance?: number;
}

const text = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : null);

export function createVerifier(options: VerifierOptions): TokenVerifier {
  return {
    async verify(token) {
      const { payload } = await jwtVerify(token, options.keys, {
        issuer: options.issuer,
        audience: options.audience,
        algorithms: ALLOWED_ALGORITHMS,
        requiredClaims: ['exp', 'sub'],
        clockTolerance: options.clockTolerance ?? 5,
      });
      const claims = text(payload.email) || !options.userinfo ? payload : { ...payload, ...(await options.userinfo(token)) };
      const email = text(claims.email);
      if (!email) throw new Error('token carries no email');
      return {
        subject: String(payload.sub),
        email: email.toLowerCase(),
        email_verified: claims.email_verified === true,
        name: text(claims.name),
        given_name: text(claims.given_name),
        family_name: text(claims.family_name),
      };
    },
  };
}

/** For an external provider: keys and userinfo endpoint from its discovery document. */
export async function discoverVerifier(issuer: string, audience: string): Promise<TokenVerifier> {
  const response = await fetch(`${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`);
  if (!response.ok) throw new Error(`OIDC discovery at ${issuer} answered ${response.status}`);
  const metadata = (await response.json()) as { jwks_uri: string; userinfo_endpoint?: string; issuer: string };
  const userinfoEndpoint = metadata.userinfo_endpoint;
  return createVerifier({
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
