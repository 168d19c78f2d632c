/**
 * List pages kept per instance as the bytes of their JSON, like the list totals (db/count-cache.ts):
 * valid while the data epoch (migrations 0010 and 0020: every write to certificates, licenses, members,
 * roles, organizations and their domains, by whoever, on any instance) stays where it was, and until the first instant
 * at which the page could differ by time alone. Everyone opening a screen, and every poll, asks for
 * the same first pages: reading 100 rows with their joins and encoding 50 kB of JSON costs
 * milliseconds, sending kept bytes almost nothing. See docs/decisions.md "List pages".
 */
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { negotiate } from '@fastify/accept-negotiator';
import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import { EpochCache, readEpoch } from './access-epoch';
import type { Queryable } from './database';
import { keep, type Kept } from './count-cache';

/** A page as it is sent: its JSON and the total of the list (X-Total-Count). */
export interface JsonPage {
  json: Buffer;
  total: number;
  /** The first instant the bytes differ by time alone (a field that reads the clock); omitted: never. */
  changesAt?: number;
}

// A page of up to 1,000 rows is at most about 0.5 MB, of the default 100 rows about 60 kB: 200 pages
// hold a few MB normally and cannot pass 100 MB. The screens ask for a handful of first pages.
const LIMIT = 200;
const perDatabase = new WeakMap<object, EpochCache<Kept<JsonPage>>>();

/** The instant given for a page that does not read the clock (now: null): every call finds it. */
const TIMELESS = new Date(0);

/**
 * The data epoch of a request: the one read with the access epoch at sign-in (auth/actor.ts), or
 * read now for a caller without one. Read before the page, so a page kept for it was read after
 * the epoch moved there.
 */
export const readDataEpoch = (db: Queryable, actor?: { data_epoch?: number }): Promise<number> =>
  actor?.data_epoch !== undefined ? Promise.resolve(actor.data_epoch) : readEpoch(db, 'data_epoch');

/**
 * The page under `key` (which must name the list, the organizations, everything of the caller the
 * page shows, and every query parameter) at data epoch `epoch` and instant `now` (null for a page
 * that does not read the clock), or `load()`'s, kept until the epoch
 * moves, the page's own `changesAt`, or `until()` (the next instant a filter that reads the clock
 * lets a row in or out).
 */
export function cachedPage(
  db: object, epoch: number, key: string, now: Date | null, load: () => Promise<JsonPage>, until?: () => Promise<number>,
): Promise<JsonPage> {
  let cache = perDatabase.get(db);
  if (!cache) perDatabase.set(db, (cache = new EpochCache<Kept<JsonPage>>(LIMIT)));
  // keep() starts load() before until(), so the page's own instant can join the filter's.
  let loading: Promise<JsonPage> | undefined;
  return keep(cache, key, epoch, now ?? TIMELESS, () => (loading = load()), async () => {
    const [page, next] = await Promise.all([loading!, until ? until() : Infinity]);
    return Math.min(next, page.changesAt ?? Infinity);
  });
}

/** The bytes of `value` as the route's response schema would encode it (a route does not run it on bytes). */
export function encodeJson<S extends z.ZodType>(schema: S, value: z.output<S>): Buffer {
  return Buffer.from(JSON.stringify(z.encode(schema, value)));
}

/** Pages smaller than this go as they are: compressing them saves less than it costs. */
const WORTH_COMPRESSING = 1024;
/** Kept JSON gzipped, once, while it is kept. */
const gzipped = new WeakMap<Buffer, Promise<Buffer>>();
const gzipInPool = promisify(gzip);

/** Sends a kept page: its bytes (sendKeptJson) and its total. */
export function sendPage(reply: FastifyReply, page: JsonPage) {
  reply.header('x-total-count', String(page.total));
  return sendKeptJson(reply, page.json);
}

/**
 * Sends JSON made once and kept (a page, the pending lists' answer) as it is (Fastify does not
 * serialize a Buffer), gzipped for a client that accepts it (every browser does). A page of 100
 * certificates is about 70 kB of JSON and 5.7 kB gzipped; it is compressed once while it is kept, in
 * libuv's thread pool, not on the event loop and not per request.
 */
export async function sendKeptJson(reply: FastifyReply, json: Buffer) {
  reply.type('application/json; charset=utf-8');
  if (json.length < WORTH_COMPRESSING) return reply.send(json);
  reply.header('vary', 'Accept-Encoding');
  const accepted = reply.request.headers['accept-encoding'];
  if (!accepted || negotiate(accepted, ['gzip']) !== 'gzip') return reply.send(json);
  let body = gzipped.get(json);
  if (!body) gzipped.set(json, (body = gzipInPool(json)));
  return reply.header('content-encoding', 'gzip').send(await body);
}

/**
 * A key part for a validated query: zod gives its fields in the schema's order, with the defaults
 * filled in, so the same parameters give the same text however the URL spelled them.
 */
export const queryKey = (query: object): string => JSON.stringify(query);
