/**
 * What a call with an API key costs besides its sign-in (issue 32, docs/decisions.md "API keys"): the per-key limit
 * of requests per minute, counted in the database so every instance adds to one number, answered with 429,
 * Retry-After and the IETF RateLimit / RateLimit-Policy fields (draft-ietf-httpapi-ratelimit-headers); and the note
 * of when and from where the key was last used, written at most once a minute per key.
 */
import type { FastifyReply } from 'fastify';
import type { Db } from '../db/database';
import { HttpError } from '../errors';
import { countRequest, dropOldWindows, noteUse } from './api-key-store';
import type { KeyFacts } from './api-key-actor';

const WINDOW_MS = 60_000;
const POLICY = 'api-key';

/** Counts the call in the key's minute window; 429 once the window's count passes `limit`. */
export async function limitKey(db: Db, reply: FastifyReply, key: KeyFacts, limit: number, now: Date): Promise<void> {
  const start = Math.floor(now.getTime() / WINDOW_MS) * WINDOW_MS;
  const count = await countRequest(db, key.api_key_id, new Date(start).toISOString());
  if (count === 1) await dropOldWindows(db, key.api_key_id, new Date(start).toISOString());
  const reset = Math.max(1, Math.ceil((start + WINDOW_MS - now.getTime()) / 1000));
  reply.header('ratelimit-policy', `"${POLICY}";q=${limit};w=${WINDOW_MS / 1000}`);
  reply.header('ratelimit', `"${POLICY}";r=${Math.max(0, limit - count)};t=${reset}`);
  if (count > limit) {
    reply.header('retry-after', String(reset));
    throw new HttpError(429, `This API key made more than ${limit} requests this minute. Try again in ${reset} seconds.`);
  }
}

/** Notes the use when none was noted in the last minute (by this instance, then by any: the update's condition). */
export async function noteKeyUse(db: Db, key: KeyFacts, from: string, now: Date): Promise<void> {
  if (now.getTime() - key.noted < WINDOW_MS) return;
  key.noted = now.getTime();
  await noteUse(db, key.api_key_id, now.toISOString(), from, new Date(now.getTime() - WINDOW_MS).toISOString());
}
