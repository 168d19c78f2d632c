/**
 * API tokens for machines (the download gateway): JWTs signed with an Ed25519 key derived from
 * the master secret, so they stop working when the secret changes and need no table of their own.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { SignJWT, decodeJwt, jwtVerify } from 'jose';
import { unauthorized } from '../../errors';

/** Kept apart from people's tokens by issuer and audience. */
const apiTokenIssuer = (api: FastifyInstance) => `${api.config.publicUrl}/api`;
const API_TOKEN_AUDIENCE = 'customer-portal-machines';
const KEY_PURPOSE = 'api-tokens';

export interface ApiTokenClaims {
  jti: string;
  upn: string;
  groups: string[];
  exp: number;
}

/**
 * Tokens already verified, per master secret holder: a gateway sends the same token with every poll,
 * and checking its Ed25519 signature again was the largest part of a 304. Nothing revokes an API
 * token but its expiry (checked on every use below) or another master secret, which is another holder.
 */
const verified = new WeakMap<object, Map<string, ApiTokenClaims>>();
const VERIFIED_LIMIT = 10_000;

function verifiedOf(api: FastifyInstance): Map<string, ApiTokenClaims> {
  let tokens = verified.get(api.masterSecret);
  if (!tokens) verified.set(api.masterSecret, (tokens = new Map()));
  return tokens;
}

/** Whether the token claims to be one of ours; its signature is checked by verifyApiToken. */
export function isApiToken(api: FastifyInstance, token: string): boolean {
  if (verifiedOf(api).has(token)) return true;
  try {
    return decodeJwt(token).iss === apiTokenIssuer(api);
  } catch {
    return false;
  }
}

export async function signApiToken(api: FastifyInstance, input: { upn: string; groups: string[]; expiresInDays: number }) {
  const { privateKey } = api.masterSecret.deriveKeyPair(KEY_PURPOSE);
  const id = randomUUID();
  const issuedAt = Math.floor(api.now().getTime() / 1000);
  const token = await new SignJWT({ upn: input.upn, groups: input.groups })
    .setProtectedHeader({ alg: 'EdDSA', typ: 'JWT' })
    .setIssuer(apiTokenIssuer(api))
    .setAudience(API_TOKEN_AUDIENCE)
    .setSubject(input.upn)
    .setJti(id)
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + input.expiresInDays * 86_400)
    .sign(privateKey);
  return { token, id };
}

/** The claims of a token verified before and not expired since; undefined when it has to be verified (again). */
export function knownApiToken(api: FastifyInstance, token: string): ApiTokenClaims | undefined {
  const tokens = verifiedOf(api);
  const known = tokens.get(token);
  if (!known) return undefined;
  // jose's rule (exp is exclusive, no tolerance), as at the first check.
  if (Math.floor(api.now().getTime() / 1000) < known.exp) return known;
  tokens.delete(token);
  return undefined;
}

export async function verifyApiToken(api: FastifyInstance, token: string): Promise<ApiTokenClaims> {
  const known = knownApiToken(api, token);
  if (known) return known;
  const tokens = verifiedOf(api);
  // Without the secret there is no key: 503 says so instead of calling every token bad.
  const { publicKey } = api.masterSecret.deriveKeyPair(KEY_PURPOSE);
  let payload;
  try {
    ({ payload } = await jwtVerify(token, publicKey, {
      issuer: apiTokenIssuer(api),
      audience: API_TOKEN_AUDIENCE,
      algorithms: ['EdDSA'],
      requiredClaims: ['exp', 'jti'],
      currentDate: api.now(),
    }));
  } catch {
    throw unauthorized('The API token is not valid (signature, audience or expiry).');
  }
  const claims: ApiTokenClaims = {
    jti: String(payload.jti),
    upn: String(payload.upn ?? payload.sub),
    groups: Array.isArray(payload.groups) ? payload.groups.map(String) : [],
    exp: Number(payload.exp),
  };
  // Bounded without bookkeeping: when full, start again (a verification is cheap to repeat).
  if (tokens.size >= VERIFIED_LIMIT) tokens.clear();
  tokens.set(token, claims);
  return claims;
}
