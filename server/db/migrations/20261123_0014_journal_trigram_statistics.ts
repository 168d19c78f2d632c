/**
 * What the journal's text filter needs to know on PostgreSQL: which trigrams most records hold
 * (`modules/audit/trigram-statistics.ts`). pg_trgm's index reads the list of every trigram of a
 * pattern, the common ones too; a statistics object on pg_trgm's trigrams of the indexed text makes
 * ANALYZE (and autovacuum after it) keep their most common ones, so a filter is looked up by the rest.
 * SQLite counts its trigrams in the index itself and needs nothing here.
 */
import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../database';

export async function up(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`create statistics audit_records_trigrams on (show_trgm(lower(reason) || ' ' || lower(message))) from audit_records`.execute(db);
  await sql`analyze audit_records`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`drop statistics if exists audit_records_trigrams`.execute(db);
}
