/**
 * Strict verification of bearer access tokens: signature against the issuer's keys, an
 * allow-list of algorithms, issuer, audience, expiry and not-before, and (for the built-in
 * provider) the access-token type. The person's email, its verification and name come from the
 * access token, else from the web app's ID token, else from userinfo (DECISIONS.md "Sign-in").
 */
import { createRemoteJWKSet, decodeJwt, jwtVerify, type JWTVerifyGetKey } from 'jose';
import { addressClaims, complete, DEFAULT_CLAIMS, resolveClaims, type ClaimMapping, type ClaimSource, type Claims } from './claims';

const ALLOWED_ALGORITHMS = ['RS256', 'PS256', 'ES256', 'EdDSA'];
const PROVIDER_TIMEOUT_MS = 10_000;

export interface Identity {
  subject: string;
  email: string;
  email_verified: boolean;
  /** Whether the provider said anything about the verification (no: a claim setting to fix, not the person's doing). */
  verification_stated: boolean;
  name: string | null;
  given_name: string | null;
  family_name: string | null;
}

export interface TokenVerifier {
  /** `idToken`: the web app's ID token (header X-Id-Token), read only when the access token lacks the person's claims. */
  verify(token: string, idToken?: string | null): Promise<Identity>;
}

/**
 * A genuine token whose person the portal cannot tell: no claim holds an email. `detail` is for the
 * operator's log (claim names and what was tried, never a value or a token), `setting` the one to change.
 */
export class UnresolvedIdentity extends Error {
  readonly setting = 'OIDC_EMAIL_CLAIM';
  constructor(readonly detail: string) {
    super('token carries no email');
  }
}

/** The provider answered userinfo with a refusal (401, 403): it does not take this access token there. */
export class UserinfoRefused extends Error {
  constructor(readonly status: number) {
    super(`userinfo refused the access token (${status})`);
  }
}

/** The discovery document names another issuer than OIDC_ISSUER: no token of it is accepted. */
export class IssuerMismatch extends Error {
  constructor(found: unknown, configured: string) {
    super(`identity provider's issuer ${JSON.stringify(found)} is not OIDC_ISSUER ${JSON.stringify(configured)}: set OIDC_ISSUER to exactly the issuer its discovery document names`);
  }
}

export interface VerifierOptions {
  issuer: string;
  audience: string;
  keys: JWTVerifyGetKey;
  /** The web app's client id: the audience of its ID tokens. Without it no ID token is read. */
  clientId?: string;
  /** Asked for the person's claims when the tokens lack the email or its verification; may throw UserinfoRefused. */
  userinfo?: (token: string) => Promise<Claims>;
  clockTolerance?: number;
  /** The header `typ` required (RFC 9068 `at+jwt`): keeps ID tokens out where the provider sets it. */
  typ?: string;
  /** Which claims hold the email, its verification and the name (OIDC_*_CLAIM); the standard ones by default. */
  claims?: Partial<ClaimMapping>;
  /** Every email of this provider counts as verified (for providers without such a claim). */
  trustEmail?: boolean;
}

const list = (items: string[]) => (items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`);

export function createVerifier(options: VerifierOptions): TokenVerifier {
  const mapping: ClaimMapping = { ...DEFAULT_CLAIMS, ...options.claims };
  const trustEmail = options.trustEmail === true;
  const verifyJwt = (token: string, audience: string, typ?: string) =>
    jwtVerify(token, options.keys, {
      issuer: options.issuer,
      audience,
      algorithms: ALLOWED_ALGORITHMS,
      requiredClaims: ['exp', 'sub'],
      clockTolerance: options.clockTolerance ?? 5,
      typ,
    });

  return {
    async verify(token, idToken) {
      const { payload } = await verifyJwt(token, options.audience, options.typ);
      const sources: Array<{ from: ClaimSource; claims: Claims }> = [{ from: 'access token', claims: payload }];
      /** Why a source said nothing, for the operator. */
      const notes: string[] = [];
      let resolved = resolveClaims(sources, mapping, trustEmail);

      if (!complete(resolved) && options.clientId) {
        if (!idToken) notes.push('the web app sent no ID token');
        else {
          const claims = await readIdToken(idToken, payload.sub!);
          if (typeof claims === 'string') notes.push(claims);
          else sources.push({ from: 'ID token', claims });
          resolved = resolveClaims(sources, mapping, trustEmail);
        }
      }
      if (!complete(resolved) && options.userinfo) {
        try {
          const claims = await options.userinfo(token);
          if (claims.sub !== payload.sub) notes.push('userinfo answered for another subject');
          else sources.push({ from: 'userinfo', claims });
        } catch (error) {
          if (!(error instanceof UserinfoRefused)) throw error;
          notes.push(`${error.message}, as providers do that issue access tokens for an API only (oidc-provider with resource indicators, Entra ID)`);
        }
        resolved = resolveClaims(sources, mapping, trustEmail);
      }
      if (!resolved.email) throw new UnresolvedIdentity(unresolvedDetail(sources, notes));
      return {
        subject: String(payload.sub),
        email: resolved.email,
        email_verified: resolved.email_verified,
        verification_stated: resolved.verificationStated,
        name: resolved.name,
        given_name: resolved.given_name,
        family_name: resolved.family_name,
      };
    },
  };

  /** The ID token's claims when it is this provider's, for this client and this subject; else why not. */
  async function readIdToken(idToken: string, subject: string): Promise<Claims | string> {
    try {
      const { payload } = await verifyJwt(idToken, options.clientId!);
      return payload.sub === subject ? payload : 'the ID token names another subject';
    } catch (error) {
      const { code, claim } = error as { code?: string; claim?: string };
      return `the ID token did not verify (${code ?? 'malformed'}${claim ? `: ${claim}` : ''})`;
    }
  }

  function unresolvedDetail(sources: Array<{ from: ClaimSource; claims: Claims }>, notes: string[]): string {
    const claimNames = mapping.email.map((c) => JSON.stringify(c)).join(' or ');
    const candidates = addressClaims(sources, mapping);
    const fix = candidates.length > 0
      ? `${list(candidates.map((c) => JSON.stringify(c)))} ${candidates.length > 1 ? 'hold addresses' : 'holds an address'}: set OIDC_EMAIL_CLAIM to the claim that is the person's email`
      : `set OIDC_EMAIL_CLAIM to the claim that holds the address, or have the provider put ${claimNames} into the access token or the ID token`;
    const read = `${list(sources.map((s) => s.from))} ${sources.length > 1 ? 'have' : 'has'} no claim ${claimNames}`;
    return `${read}${notes.length ? ` (${notes.join('; ')})` : ''}; ${fix}`;
  }
}

interface DiscoveryDocument {
  issuer?: unknown;
  jwks_uri?: unknown;
  userinfo_endpoint?: unknown;
}

/** Userinfo with the access token: Keycloak, Auth0, Okta and Dex take it there; a refusal is UserinfoRefused. */
function userinfoAt(endpoint: string) {
  return async (token: string): Promise<Claims> => {
    const response = await fetch(endpoint, { headers: { authorization: `Bearer ${token}`, accept: 'application/json' }, signal: AbortSignal.timeout(PROVIDER_TIMEOUT_MS) });
    if (response.status === 401 || response.status === 403) throw new UserinfoRefused(response.status);
    if (!response.ok) throw new Error(`userinfo answered ${response.status}`);
    // A signed or encrypted answer (application/jwt) is not read: the tokens are the signed word.
    if (!(response.headers.get('content-type') ?? '').includes('json')) throw new UserinfoRefused(response.status);
    return (await response.json()) as Claims;
  };
}

/**
 * For an external provider: keys and userinfo endpoint from its discovery document, whose issuer
 * must be OIDC_ISSUER exactly (OpenID Connect Discovery §4.3); otherwise IssuerMismatch.
 */
export async function discoverVerifier(oidc: {
  issuer: string;
  audience: string;
  clientId: string;
  claims: ClaimMapping;
  trustEmail: boolean;
}): Promise<TokenVerifier> {
  const response = await fetch(`${oidc.issuer.replace(/\/$/, '')}/.well-known/openid-configuration`, { signal: AbortSignal.timeout(PROVIDER_TIMEOUT_MS) });
  if (!response.ok) throw new Error(`OIDC discovery at ${oidc.issuer} answered ${response.status}`);
  const metadata = (await response.json()) as DiscoveryDocument;
  if (metadata.issuer !== oidc.issuer) throw new IssuerMismatch(metadata.issuer, oidc.issuer);
  if (typeof metadata.jwks_uri !== 'string') throw new Error(`OIDC discovery at ${oidc.issuer} names no jwks_uri`);
  return createVerifier({
    issuer: oidc.issuer,
    audience: oidc.audience,
    clientId: oidc.clientId,
    claims: oidc.claims,
    trustEmail: oidc.trustEmail,
    keys: createRemoteJWKSet(new URL(metadata.jwks_uri)),
    userinfo: typeof metadata.userinfo_endpoint === 'string' ? userinfoAt(metadata.userinfo_endpoint) : undefined,
  });
}

/**
 * Remembers tokens it has verified until they expire, so a session's calls verify their token
 * (and, for some providers, read the ID token or ask userinfo) once instead of on every request.
 * Safe because a verified token stays valid until its `exp`; bans and role changes are decided
 * per call from the member, not the token (auth/actor.ts).
 */
export function cachingVerifier(verifier: TokenVerifier, limit = 10_000): TokenVerifier {
  const verified = new Map<string, { identity: Identity; expiresAt: number }>();
  return {
    async verify(token, idToken) {
      const hit = verified.get(token);
      if (hit && Date.now() < hit.expiresAt) return hit.identity;
      const identity = await verifier.verify(token, idToken);
      const exp = decodeJwt(token).exp;
      if (typeof exp === 'number') {
        if (verified.size >= limit) verified.clear();
        verified.set(token, { identity, expiresAt: exp * 1000 });
      }
      return identity;
    },
  };
}

