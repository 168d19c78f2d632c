/**
 * The order of a sorted list (docs/decisions.md "Sorting"): columns in one direction, the last of
 * them unique, so the order is total and pages neither overlap nor skip a row. One direction for
 * all of them, so an index on those columns serves the order read forwards or backwards.
 */
import { sql, type AliasedSelectQueryBuilder, type Expression, type SelectQueryBuilder, type SqlBool } from 'kysely';
import { isPostgres, type Queryable } from './database';

export interface Order {
  /** Qualified columns (`c.date_not_after`); the last one, or the columns together, unique. */
  columns: string[];
  descending: boolean;
  /**
   * Sort the rows the WHERE clause's index finds, rather than walk an index in this order and
   * filter: for a condition no index in the order can hold (pending acknowledgements: "expired
   * now" is a range of the end of validity), whose rows are few. Ordered by `column || ''`, the
   * same text, so no index offers the order and neither engine is tempted to walk one.
   */
  sortFound?: boolean;
}

export function inOrder<DB, TB extends keyof DB, O>(query: SelectQueryBuilder<DB, TB, O>, order: Order): SelectQueryBuilder<DB, TB, O> {
  let q = query;
  for (const column of order.columns) {
    q = q.orderBy(order.sortFound ? sql`${sql.ref(column)} || ''` : sql.ref(column), order.descending ? 'desc' : 'asc');
  }
  return q;
}

/**
 * A filter most rows pass ("hide expired": the expired ones are a tenth), said so to SQLite's
 * planner. SQLite has no statistics (the portal runs no ANALYZE), so a range on an index of
 * (organization, end of validity, key) looked selective: it read the 18,000 unexpired certificates
 * of an organization through it and sorted them for a page in name order (30 ms), where walking the
 * name's index and skipping the expired takes 0.5 ms; the range still serves an order by the end of
 * validity. PostgreSQL weighs the range with its statistics and gets the condition as it is.
 */
export function mostlyTrue(db: Queryable, condition: Expression<SqlBool>): Expression<SqlBool> {
  return isPostgres(db) ? condition : sql<SqlBool>`likelihood(${condition}, 0.9)`;
}

/** A query of the count of a list's rows, as column `n`. */
interface CountQuery {
  as<A extends string>(alias: A): AliasedSelectQueryBuilder<{ n: number }, A>;
  executeTakeFirstOrThrow(): Promise<{ n: number }>;
}

/**
 * A page of a list and the list's total in one statement: the total, `count` (a query of one count column `n` with the
 * list's conditions), rides as a scalar subquery beside every row, which both engines compute once. A page past the
 * end has no row to carry it: then it is counted on its own.
 */
export async function pageWithTotal<DB, TB extends keyof DB, O>(
  page: SelectQueryBuilder<DB, TB, O>,
  count: CountQuery,
  offset: number,
  limit: number,
  /** The page holds only its own rows already (`keysFirst`): `offset` and `limit` were applied to its keys. */
  cut = false,
): Promise<{ rows: O[]; total: number }> {
  const rows = cut ? page : page.offset(offset).limit(limit);
  const found = (await rows.select(count.as('list_total')).execute()) as (O & { list_total: number | string })[];
  if (found.length === 0) return { rows: [], total: offset === 0 ? 0 : Number((await count.executeTakeFirstOrThrow()).n) };
  return { rows: found.map(({ list_total: _, ...row }) => row as O), total: Number(found[0].list_total) };
}

/**
 * The count of an unfiltered list of `table`'s rows in `organizations`, as `pageWithTotal` takes it: read from the
 * numbers triggers keep per organization (migration 0036), not counted, so a first page costs its own rows however
 * many the organization has.
 */
export function countedRows(db: Queryable, table: 'certificates' | 'licenses', organizations: 'all' | string[]): CountQuery {
  const q = db.selectFrom('organization_counters').select((eb) => eb.fn.coalesce(eb.fn.sum<number>(table), eb.lit(0)).as('n'));
  return organizations === 'all' ? q : q.where('organization_id', 'in', organizations);
}
