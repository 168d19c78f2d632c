/**
 * How concurrent changes of one object are decided (docs/decisions.md "Concurrency"). A state
 * transition reads the row, checks the state in code and writes; two callers doing that at once
 * would both pass the check. So the first statement of every transition's transaction is
 * `lockRow`, and everything it reads afterwards sees what the previous holder committed.
 */
import { sql } from 'kysely';
import { isPostgres, type Tx } from './database';
import type { Database } from './schema';

/**
 * Locks the row of `table` whose `keyColumn` is `key` until the transaction ends; answers whether
 * the row exists (false once a concurrent removal has committed).
 *
 * PostgreSQL: `SELECT … FOR UPDATE` makes a second transaction wait here until the first commits
 * or rolls back; at READ COMMITTED (the default) each later statement then reads the committed
 * state, so the second caller sees the change and is refused by the state check, or finds no row.
 *
 * SQLite: a plain SELECT is enough. Kysely's SQLite driver has one connection guarded by a mutex
 * and holds it from BEGIN to COMMIT, so transactions of this process already run one after
 * another (SQLite is the single-instance engine; several instances share PostgreSQL only).
 */
export async function lockRow<T extends keyof Database & string>(
  tx: Tx, table: T, keyColumn: keyof Database[T] & string, key: string,
): Promise<boolean> {
  const forUpdate = isPostgres(tx) ? sql` for update` : sql``;
  const { rows } = await sql`select 1 from ${sql.table(table)} where ${sql.ref(keyColumn)} = ${key}${forUpdate}`.execute(tx);
  return rows.length > 0;
}

/** Locks several rows of one table in a fixed order, so two transactions never wait on each other. */
export async function lockRows<T extends keyof Database & string>(
  tx: Tx, table: T, keyColumn: keyof Database[T] & string, keys: readonly string[],
): Promise<void> {
  for (const key of [...new Set(keys)].sort()) await lockRow(tx, table, keyColumn, key);
}
