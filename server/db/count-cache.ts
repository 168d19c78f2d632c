/**
 * List totals (X-Total-Count), kept per instance. Counting 20,000 certificates of one organization
 * from an index costs 2 ms on SQLite, 100,000 across organizations far more, and every page of a
 * list asks again. A total is kept until the data epoch moves (migration 0010: triggers on the
 * tables the lists count, whoever writes, on any instance) or, for a filter that reads the clock
 * (hide expired, hide valid), until the next instant a row enters or leaves its validity window.
 * See docs/decisions.md "List totals".
 */
import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { Queryable } from './database';
import { epochCache, readEpoch, type EpochCache } from './access-epoch';

/** A value kept for one epoch and the instants [from, until) at which it holds. */
export interface Kept<T> {
  value: T;
  from: number;
  until: number;
}

/**
 * The value kept in `cache` under `key` for `epoch` (read before loading, so the value is at least as
 * new as it) and this instant, or `load()`'s, kept until `until()` answers the next instant it may
 * change by time alone (omit it for a value that does not read the clock). A clock set back
 * (tests, a corrected server) loads anew.
 */
export async function keep<T>(
  cache: EpochCache<Kept<T>>, key: string, epoch: number, now: Date, load: () => Promise<T>, until?: () => Promise<number>,
): Promise<T> {
  const at = now.getTime();
  const hit = cache.get(key, epoch);
  if (hit && hit.from <= at && at < hit.until) return hit.value;
  const [value, next] = await Promise.all([load(), until ? until() : Infinity]);
  return cache.set(key, epoch, { value, from: at, until: next }).value;
}

/** The total under `key` (which must name the list and every filter), counted by `count` when none is kept. */
export async function cachedTotal(
  db: Queryable, key: string, now: Date, count: () => Promise<number>, until?: () => Promise<number>,
): Promise<number> {
  return keep(epochCache<Kept<number>>(db, 'totals'), key, await readEpoch(db, 'data_epoch'), now, count, until);
}

/** The next instant after `now` among these columns' values (an index seek each), or Infinity. */
export function nextInstant(db: Queryable, table: 'certificates' | 'licenses', columns: string[], now: Date): () => Promise<number> {
  return async () => {
    const at = now.toISOString();
    const firsts = await Promise.all(
      columns.map((column) =>
        db.selectFrom(table).select(sql<string | null>`min(${sql.ref(column)})`.as('at')).where(sql.ref(column), '>', at).executeTakeFirst(),
      ),
    );
    return Math.min(Infinity, ...firsts.map((r) => (r?.at ? Date.parse(String(r.at)) : Infinity)));
  };
}

/**
 * The next instant after `now` at which a row's `column`, less `lead` ms, falls: when a row comes
 * within `lead` of its end ("expiring within N days"). One index seek.
 */
export function shiftedInstant(db: Queryable, table: 'certificates' | 'licenses', column: string, now: Date, lead: number): () => Promise<number> {
  const next = nextInstant(db, table, [column], new Date(now.getTime() + lead));
  return async () => (await next()) - lead;
}

/** The earliest of several next instants (each asked at once). */
export function earliest(...instants: Array<() => Promise<number>>): () => Promise<number> {
  return async () => Math.min(Infinity, ...(await Promise.all(instants.map((next) => next()))));
}

/** A key part for a list's filters: the validated query without its page and order (the total is theirs). */
export function filtersKey(query: object): string {
  const { offset: _offset, limit: _limit, sort: _sort, ...filters } = query as Record<string, unknown>;
  return JSON.stringify({ ...filters, name: typeof filters.name === 'string' ? filters.name.trim() : filters.name });
}

const setKeys = new WeakMap<string[], string>();

/** A short key for a set of organizations; a large set (an operator's readable ones) is hashed once per array. */
export function organizationsKey(organizations: 'all' | string[]): string {
  if (organizations === 'all') return 'all';
  if (organizations.length <= 4) return organizations.join(',');
  let key = setKeys.get(organizations);
  if (!key) setKeys.set(organizations, (key = `#${createHash('sha256').update([...organizations].sort().join(',')).digest('base64url')}`));
  return key;
}
