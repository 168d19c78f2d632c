/**
 * SQLite: one index that holds an organization's journal in its order with every column a page shows, so a page,
 * a filtered scan and the overview's newest records read one contiguous index range instead of a table page per
 * record (an organization's records lie scattered among everyone's). It takes the place of `audit_records_search`
 * (migration 0003), which held only reason and message, in id order: the number `sequence` is the same order
 * (migration 0005). PostgreSQL keeps its indexes: an entry there has a size limit that long messages could exceed.
 */
import type { Kysely } from 'kysely';
import { isPostgres } from '../database';

export async function up(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) return;
  await db.schema
    .createIndex('audit_records_page')
    .on('audit_records')
    .columns(['organization_id', 'sequence', 'record_id', 'reason', 'date_created', 'member_email', 'message'])
    .execute();
  await db.schema.dropIndex('audit_records_search').ifExists().execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) return;
  await db.schema.createIndex('audit_records_search').on('audit_records').columns(['organization_id', 'record_id', 'reason', 'message']).execute();
  await db.schema.dropIndex('audit_records_page').ifExists().execute();
}
