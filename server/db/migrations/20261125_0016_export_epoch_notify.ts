/**
 * PostgreSQL tells every instance when the export epoch moves (NOTIFY export_epoch, the new number as
 * payload, delivered at commit), so a gateway's poll answered 304 needs no query at all
 * (db/export-epoch.ts, docs/decisions.md "Export cache"). SQLite: nothing; its read costs microseconds.
 */
import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../database';

const body = (notify: boolean) =>
  notify
    ? `declare moved bigint;
      begin update export_epoch set epoch = epoch + 1 where id = 1 returning epoch into moved;
      perform pg_notify('export_epoch', moved::text); return null; end`
    : 'begin update export_epoch set epoch = epoch + 1 where id = 1; return null; end';

async function replace(db: Kysely<any>, notify: boolean) {
  if (!isPostgres(db)) return;
  // The triggers call the function by name: replacing its body changes every one of them.
  await sql`create or replace function bump_export_epoch() returns trigger language plpgsql as ${sql.lit(body(notify))}`.execute(db);
}

export async function up(db: Kysely<any>): Promise<void> {
  await replace(db, true);
}

export async function down(db: Kysely<any>): Promise<void> {
  await replace(db, false);
}
