/**
 * When something read changes by time alone: the next instant a certificate's or license's date passes
 * (index seeks). What reads the clock is kept until then (http/kept-answers.ts `keptUntil`).
 */
import { sql } from 'kysely';
import type { Queryable } from './database';

/** Rows of every organization, or of these (a list's: its organization first in the date indexes, migration 0017). */
export type Organizations = 'all' | string[];

/** One seek: the first value of `column` after `now + lead`, less `lead` (when a row comes within `lead` of it). */
export interface Seek {
  table: 'certificates' | 'licenses';
  column: string;
  lead: number;
  organizations: Organizations;
}

/** The next instant after `now` among these columns' values. */
export function after(table: Seek['table'], columns: string[], organizations: Organizations = 'all'): Seek[] {
  return columns.map((column) => ({ table, column, lead: 0, organizations }));
}

/** The next instant after `now` at which a row's `column`, less `lead` ms, falls: "expiring within N days". */
export function within(table: Seek['table'], column: string, lead: number, organizations: Organizations = 'all'): Seek {
  return { table, column, lead, organizations };
}

/**
 * The earliest instant of the seeks after `now`, or Infinity: one statement of scalar subqueries, each an index
 * seek, so the overview's eleven cost one round trip and one plan (its SQL text is the same on every call).
 */
export async function earliest(db: Queryable, now: Date, seeks: Seek[]): Promise<number> {
  const live = seeks.filter((s) => s.organizations === 'all' || s.organizations.length > 0);
  if (live.length === 0) return Infinity;
  const firsts = live.map((s) => {
    const column = sql.ref(s.column);
    const inScope = s.organizations === 'all' ? sql`` : sql` and organization_id in (${sql.join(s.organizations)})`;
    return sql`(select min(${column}) from ${sql.table(s.table)} where ${column} > ${new Date(now.getTime() + s.lead).toISOString()}${inScope})`;
  });
  const { rows } = await sql<{ at: string | null }>`select ${sql.join(firsts.map((first, i) => sql`${first} as ${sql.ref(`at_${i}`)}`))}`.execute(db);
  const row = rows[0] as unknown as Record<string, string | null>;
  return Math.min(Infinity, ...live.map((s, i) => {
    const value = row[`at_${i}`];
    return value ? Date.parse(String(value)) - s.lead : Infinity;
  }));
}
