/**
 * The zone a license's days are counted in (DECISIONS.md "Licenses": calendar days in the zone in which it
 * starts at local midnight, the requester's). Approving with changed days counts the end again in it.
 * Licenses made before were counted in 24-hour days, which are UTC's calendar days: 'UTC' keeps their ends.
 *
 * On SQLite `down` leaves the column (older code never names it, and its default fills it) and `up` adds it
 * only where it is missing: SQLite checks every trigger again on DROP COLUMN and cannot read the upsert alias
 * of migration 0015's triggers (`insert into archive_versions as v … set version = v.version + 1`).
 */
import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../database';

async function hasColumn(db: Kysely<any>): Promise<boolean> {
  const { rows } = await sql<{ name: string }>`select name from pragma_table_info('licenses') where name = 'time_zone'`.execute(db);
  return rows.length > 0;
}

export async function up(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db) && (await hasColumn(db))) return;
  await db.schema.alterTable('licenses').addColumn('time_zone', 'text', (column) => column.notNull().defaultTo('UTC')).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  await db.schema.alterTable('licenses').dropColumn('time_zone').execute();
}
