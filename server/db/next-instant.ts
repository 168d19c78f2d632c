/**
 * When something read changes by time alone: the next instant a certificate's or license's date passes
 * (index seeks). What reads the clock is kept until then (http/kept-answers.ts `keptUntil`).
 */
import { sql } from 'kysely';
import type { Queryable } from './database';

/** Rows of every organization, or of these (a list's: its organization first in the date indexes, migration 0017). */
export type Organizations = 'all' | string[];

/** The next instant after `now` among these columns' values (an index seek each), or Infinity. */
export function nextInstant(
  db: Queryable, table: 'certificates' | 'licenses', columns: string[], now: Date, organizations: Organizations = 'all',
): () => Promise<number> {
  return async () => {
    if (organizations !== 'all' && organizations.length === 0) return Infinity;
    const at = now.toISOString();
    const firsts = await Promise.all(
      columns.map((column) => {
        const after = db.selectFrom(table).select(sql<string | null>`min(${sql.ref(column)})`.as('at')).where(sql.ref(column), '>', at);
        return (organizations === 'all' ? after : after.where('organization_id', 'in', organizations)).executeTakeFirst();
      }),
    );
    return Math.min(Infinity, ...firsts.map((r) => (r?.at ? Date.parse(String(r.at)) : Infinity)));
  };
}

/**
 * The next instant after `now` at which a row's `column`, less `lead` ms, falls: when a row comes
 * within `lead` of its end ("expiring within N days"). One index seek.
 */
export function shiftedInstant(
  db: Queryable, table: 'certificates' | 'licenses', column: string, now: Date, lead: number, organizations: Organizations = 'all',
): () => Promise<number> {
  const next = nextInstant(db, table, [column], new Date(now.getTime() + lead), organizations);
  return async () => (await next()) - lead;
}

/** The earliest of several next instants (each asked at once). */
export function earliest(...instants: Array<() => Promise<number>>): () => Promise<number> {
  return async () => Math.min(Infinity, ...(await Promise.all(instants.map((next) => next()))));
}
