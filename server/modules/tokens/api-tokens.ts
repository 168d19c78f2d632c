/**
 * API tokens for machines (the download gateway): JWTs signed with an Ed25519 key derived from
 * the master secret, so they all stop working when the secret changes. Each one made since issue 34
 * is recorded (api_tokens) and may be revoked; a token without a row (made before) keeps working.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { SignJWT, decodeJwt, jwtVerify } from 'jose';
import { knownExportEpoch, readExportEpoch } from '../../db/export-epoch';
import { unauthorized } from '../../errors';
import { recordOf, writeLastUses } from './repository';

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
 * and checking its Ed25519 signature again was the largest part of a 304. Its expiry is checked on every
 * use below, another master secret is another holder, and a revocation moves the export epoch
 * (migration 0026): the token was found not revoked at `epoch`, and is looked up again once it moves.
 */
interface Verified {
  claims: ApiTokenClaims;
  epoch: number;
  /** Whether it has a row, whose "last used" is written. */
  recorded: boolean;
}
const verified = new WeakMap<object, Map<string, Verified>>();
const VERIFIED_LIMIT = 10_000;

function verifiedOf(api: FastifyInstance): Map<string, Verified> {
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
  const expiresAt = issuedAt + input.expiresInDays * 86_400;
  const token = await new SignJWT({ upn: input.upn, groups: input.groups })
    .setProtectedHeader({ alg: 'EdDSA', typ: 'JWT' })
    .setIssuer(apiTokenIssuer(api))
    .setAudience(API_TOKEN_AUDIENCE)
    .setSubject(input.upn)
    .setJti(id)
    .setIssuedAt(issuedAt)
    .setExpirationTime(expiresAt)
    .sign(privateKey);
  return { token, id, issuedAt: new Date(issuedAt * 1000), expiresAt: new Date(expiresAt * 1000) };
}

/** The token as verified before, unless it has expired since (then it is forgotten). */
function keptToken(api: FastifyInstance, token: string): Verified | undefined {
  const tokens = verifiedOf(api);
  const known = tokens.get(token);
  if (!known) return undefined;
  // jose's rule (exp is exclusive, no tolerance), as at the first check.
  if (Math.floor(api.now().getTime() / 1000) < known.claims.exp) return known;
  tokens.delete(token);
  return undefined;
}

/**
 * The claims of a token verified before, not expired since and found not revoked at the export epoch this
 * process knows without a query (modules/piston/fast-poll.ts); undefined when it has to be checked (again).
 */
export function knownApiToken(api: FastifyInstance, token: string): ApiTokenClaims | undefined {
  const known = keptToken(api, token);
  if (!known || known.epoch !== knownExportEpoch(api.db)) return undefined;
  if (known.recorded) noteApiTokenUse(api, known.claims.jti);
  return known.claims;
}

export async function verifyApiToken(api: FastifyInstance, token: string): Promise<ApiTokenClaims> {
  // Read before the revocation is looked up, so what is kept is at least as new as the epoch it is kept for.
  const epoch = await readExportEpoch(api.db);
  const tokens = verifiedOf(api);
  const kept = keptToken(api, token);
  const claims = kept?.claims ?? (await verifySignature(api, token));
  let recorded = kept?.recorded ?? false;
  if (kept?.epoch !== epoch) {
    const record = await recordOf(api.db, claims.jti);
    if (record === 'revoked') {
      tokens.delete(token);
      throw unauthorized('The API token has been revoked.');
    }
    recorded = record === 'active';
  }
  // Bounded without bookkeeping: when full, start again (a verification is cheap to repeat).
  if (!kept && tokens.size >= VERIFIED_LIMIT) tokens.clear();
  tokens.set(token, { claims, epoch, recorded });
  if (recorded) noteApiTokenUse(api, claims.jti);
  return claims;
}

async function verifySignature(api: FastifyInstance, token: string): Promise<ApiTokenClaims> {
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
  return {
    jti: String(payload.jti),
    upn: String(payload.upn ?? payload.sub),
    groups: Array.isArray(payload.groups) ? payload.groups.map(String) : [],
    exp: Number(payload.exp),
  };
}

/**
 * "Last used", written at most once a minute per process for all its tokens together: every write opens
 * a moment in which the polls of this instance read the export epoch from the database (db/export-epoch.ts),
 * so one write a minute keeps the 304 fast path almost always open. A use is kept in memory until then.
 */
const LAST_USE_EVERY_MS = 60_000;
interface Uses {
  pending: Map<string, string>;
  writtenAt: number;
}
const uses = new WeakMap<object, Uses>();

function noteApiTokenUse(api: FastifyInstance, tokenId: string): void {
  let kept = uses.get(api.db);
  if (!kept) uses.set(api.db, (kept = { pending: new Map(), writtenAt: -Infinity }));
  const now = api.now();
  kept.pending.set(tokenId, now.toISOString());
  const at = now.getTime();
  // A clock set back (tests, a corrected server) writes again too.
  if (at - kept.writtenAt < LAST_USE_EVERY_MS && at >= kept.writtenAt) return;
  kept.writtenAt = at;
  const batch = kept.pending;
  kept.pending = new Map();
  writeLastUses(api.db, batch).catch((error: unknown) => api.log.warn({ err: error }, 'Could not record when API tokens were last used.'));
}
