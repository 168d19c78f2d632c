/**
 * The order of a sorted list (docs/decisions.md "Sorting"): columns in one direction, the last of
 * them unique, so the order is total and pages neither overlap nor skip a row. One direction for
 * all of them, so an index on those columns serves the order read forwards or backwards.
 */
import { sql, type AliasedSelectQueryBuilder, type Expression, type SelectQueryBuilder, type SqlBool } from 'kysely';
import { isPostgres, readRows, type Queryable } from './database';

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

/**
 * Where a page at `offset` of an unfiltered list of every organization's `table` rows, by organization name, starts:
 * the name of its first row's organization, and the offset within the rows from that organization on. From the
 * numbers `countedRows` reads, summed in name order: a deep page then walks one organization's index from its start,
 * not every row before it (the admin list at offset 90,000: 90,000 rows read, and on PostgreSQL sorted, 70-100 ms).
 * Undefined when the offset is past the end.
 */
export async function countedStart(
  db: Queryable, table: 'certificates' | 'licenses', offset: number, descending: boolean,
): Promise<{ from: string; offset: number } | undefined> {
  const direction = descending ? 'desc' : 'asc';
  const [row] = await readRows(db, `select name, upto - n as before from (
      select o.organization_name as name, coalesce(c.${table}, 0) as n,
        sum(coalesce(c.${table}, 0)) over (order by o.organization_name ${direction} rows between unbounded preceding and current row) as upto
      from organizations o left join organization_counters c on c.organization_id = o.organization_id
    ) counted where upto > ? order by name ${direction} limit 1`, [offset]);
  return row ? { from: String(row.name), offset: offset - Number(row.before) } : undefined;
}
