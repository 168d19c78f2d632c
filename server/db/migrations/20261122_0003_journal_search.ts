/**
 * A journal search reads every record of one organization, and those records lie scattered over the
 * whole table among other organizations' records. On SQLite an index that holds reason and message
 * too lets the search read the organization's records from one contiguous index range instead of
 * from every page of the table (about four times faster on a million records). PostgreSQL is left
 * as it is: its index entries have a size limit that long messages could exceed, and it scans in
 * parallel (docs/decisions.md "Speed targets").
 */
import type { Kysely } from 'kysely';
import { isPostgres } from '../database';

export async function up(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) return;
  await db.schema.createIndex('audit_records_search').on('audit_records').columns(['organization_id', 'record_id', 'reason', 'message']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('audit_records_search').ifExists().execute();
}
