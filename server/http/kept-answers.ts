/**
 * Answers kept whole and revalidated by ETag (docs/decisions.md "Kept answers"). A route declares in
 * `config.keep` that its answer may be kept and what it varies by; the key and the validity are built here
 * and nowhere else:
 * - the key: the route, its path and query parameters (validated, so spelled one way) and the caller's roles
 *   (the abilities in the answer), or the member for an answer that shows the caller;
 * - the validity: the version of the organization in the path and of the tree (db/versions.ts), read with the
 *   caller's sign-in in one statement, and the instant the answer changes by time alone (`reply.keptUntil`,
 *   set by sendPage). A write in one organization leaves every other organization's answers valid. A route whose
 *   rule `tells` sends that instant too (X-Changes-In, ms from the request), so an open screen fetches it again then.
 *   An answer over every organization the caller reads (`over: 'all'`: the admin lists, the pending approvals) is
 *   valid while the global version (every organization's and the tree's) stays; it is read with one more statement.
 * An answer found is sent without running the route: the same roles over the same tree were authorized when it
 * was made, and the sign-in that refuses bans ran before. Every such answer carries an ETag of its bytes, so a
 * browser's repeated read costs a 304; other answers of several organizations get the ETag and are not kept.
 * JSON of 1 kB or more goes gzipped to clients that accept it, and is kept gzipped.
 */
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { gunzip, gzip } from 'node:zlib';
import { negotiate } from '@fastify/accept-negotiator';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { rolesKey } from '../access/tree';
import { keptFor } from '../db/kept';
import { readGlobalVersion, stampOf } from '../db/versions';
import { ownBytes } from '../own-bytes';

export interface KeepRule {
  /** Besides path and query: the caller's roles (abilities), or the member (an answer that shows the caller). */
  varies: 'roles' | 'member';
  /** The organizations the answer reads: the path's `:id` (the default), or every one the caller reads. */
  over?: 'path' | 'all';
  /** False for a query whose answer reads the clock (a filter on validity): then not kept, only tagged. */
  when?: (query: unknown) => boolean;
  /** The answer tells when it changes by time alone (X-Changes-In): its route sets `keptUntil` on every answer. */
  tells?: boolean;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    keep?: KeepRule;
  }
  interface FastifyReply {
    /** The first instant (ms) the answer may differ by time alone; Infinity: never. */
    keptUntil: number;
  }
}

interface Answer {
  /** The JSON, gzipped when it is worth compressing (`gzipped`): the form nearly every client takes, and a fifth of the size. */
  bytes: Buffer;
  gzipped: boolean;
  etag: string;
  total: string | undefined;
  /** `reply.keptUntil` when it was made, for a route that tells it: the first instant it may differ by time alone. */
  changesAt: number | undefined;
}

/**
 * Kept answers at most, and their bytes as kept (compressed): a few screens of every active organization, within
 * the RSS budget (docs/performance.md "Memory").
 */
const LIMITS = { entries: 20_000, bytes: 16 * 2 ** 20, sizeOf: (a: Answer) => a.bytes.length + 200 };

/** A page of a list as the route sends it: its JSON and the total of the list (X-Total-Count). */
export interface JsonPage {
  json: Buffer;
  total: number;
  /** The first instant the bytes differ by time alone (a field that reads the clock); omitted: never. */
  changesAt?: number;
}

/** The bytes of `value` as the route's response schema would encode it (a route does not run it on bytes). */
export function encodeJson<S extends z.ZodType>(schema: S, value: z.output<S>): Buffer {
  return Buffer.from(JSON.stringify(z.encode(schema, value)));
}

/** Sends a page: its bytes, its total, and until when it holds by time alone. */
export function sendPage(reply: FastifyReply, page: JsonPage) {
  reply.header('x-total-count', String(page.total));
  return sendJson(reply, page.json, page.changesAt);
}

/**
 * Sends JSON already encoded by the response schema (Fastify does not serialize a Buffer); `changesAt`: the first
 * instant the bytes differ by time alone, until which a kept answer holds (omitted: never).
 */
export function sendJson(reply: FastifyReply, json: Buffer, changesAt?: number) {
  if (changesAt !== undefined) reply.keptUntil = changesAt;
  return reply.type('application/json; charset=utf-8').send(json);
}

/** The header that says when an answer may differ by time alone (OpenAPI: http/openapi.ts). */
export const CHANGES_IN = 'x-changes-in';

/** Pages smaller than this go as they are: compressing them saves less than it costs. */
const WORTH_COMPRESSING = 1024;
const gzipInPool = promisify(gzip);
const gunzipInPool = promisify(gunzip);

interface Keeping {
  key: string;
  /** The request's instant (the injected clock): the answer is kept from it. */
  at: number;
  stamp: string | undefined;
  found: boolean;
  tells: boolean;
}
const keeping = new WeakMap<FastifyRequest, Keeping>();

export function registerKeptAnswers(api: FastifyInstance): void {
  api.decorateReply('keptUntil', Infinity);

  api.addHook('preHandler', async (request, reply) => {
    const rule = request.routeOptions.config?.keep;
    const actor = request.actor;
    if (!rule || !actor || request.method !== 'GET') return;
    const { id } = request.params as { id?: unknown };
    const who = rule.varies === 'member' ? `${actor.member_id} ` : '';
    const key = `${request.routeOptions.url} ${JSON.stringify(request.params)} ${JSON.stringify(request.query)} ${who}${rolesKey(actor)}`;
    const stamp = rule.when?.(request.query) === false ? undefined
      : rule.over === 'all' ? `all ${await readGlobalVersion(api.db)}`
      : typeof id === 'string' ? stampOf(actor.versions, [id]) : undefined;
    const state: Keeping = { key, at: api.now().getTime(), stamp, found: false, tells: rule.tells === true };
    keeping.set(request, state);
    const found = stamp && answers(api).get(key, stamp, state.at);
    if (!found) return;
    state.found = true;
    return send(request, reply, found, state.at);
  });

  api.addHook('onSend', async (request, reply, payload) => {
    const state = keeping.get(request);
    if (!state || state.found || reply.statusCode !== 200 || !(typeof payload === 'string' || Buffer.isBuffer(payload))) return payload;
    const body = Buffer.isBuffer(payload) ? payload : Buffer.from(payload);
    const etag = `"${createHash('sha1').update(body).digest('base64url')}"`;
    const total = reply.getHeader('x-total-count')?.toString();
    const changesAt = state.tells ? reply.keptUntil : undefined;
    const small = body.length < WORTH_COMPRESSING;
    if (!state.stamp) return prepare(request, reply, { bytes: body, gzipped: false, etag, total, changesAt }, state.at);
    const answer: Answer = { bytes: ownBytes(small ? body : await gzipInPool(body)), gzipped: !small, etag, total, changesAt };
    answers(api).set(state.key, state.stamp, answer, state.at, reply.keptUntil);
    return prepare(request, reply, answer, state.at, body);
  });
}

const answers = (api: FastifyInstance) => keptFor<Answer>(api.db, 'answers', LIMITS);

async function send(request: FastifyRequest, reply: FastifyReply, answer: Answer, at: number) {
  if (answer.total !== undefined) reply.header('x-total-count', answer.total);
  reply.type('application/json; charset=utf-8');
  return reply.send(await prepare(request, reply, answer, at));
}

/**
 * The headers of a kept or keepable answer (asked at `at`), and its bytes: none for a matching If-None-Match,
 * gzipped when accepted. `plain`: the JSON at hand when the answer was just made.
 */
async function prepare(request: FastifyRequest, reply: FastifyReply, answer: Answer, at: number, plain?: Buffer): Promise<Buffer | string> {
  // no-cache: a browser keeps the answer but asks each time, with the ETag; private: it shows one caller's data.
  reply.header('etag', answer.etag).header('cache-control', 'private, no-cache');
  // When the answer may differ by time alone (a status, days left, a row entering or leaving a filter on time), in ms
  // from now: an open screen asks again then, whatever its clock says. On a 304 too, which updates the browser's copy.
  if (answer.changesAt !== undefined) reply.header(CHANGES_IN, Number.isFinite(answer.changesAt) ? String(Math.max(answer.changesAt - at, 0)) : 'never');
  const compressible = answer.gzipped || answer.bytes.length >= WORTH_COMPRESSING;
  if (compressible) reply.header('vary', 'Accept-Encoding');
  if (request.headers['if-none-match'] === answer.etag) {
    reply.code(304).removeHeader('x-total-count');
    return '';
  }
  const accepted = request.headers['accept-encoding'];
  if (compressible && accepted && negotiate(accepted, ['gzip']) === 'gzip') {
    reply.header('content-encoding', 'gzip');
    return answer.gzipped ? answer.bytes : gzipInPool(answer.bytes);
  }
  if (!answer.gzipped) return answer.bytes;
  return plain ?? gunzipInPool(answer.bytes);
}
