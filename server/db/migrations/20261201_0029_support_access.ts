/**
 * Vendor support access with the customer's consent (issue 33 item 2, docs/decisions.md "Support access").
 *
 * - `support_requests`: one row per request, never deleted (the customer's record of who was let in). Its number
 *   (`request_id`, a sequence) is the "#N" the journal and the banners name. `state` moves REQUESTED → APPROVED
 *   (active until `date_until`) / DENIED / ENDED, and APPROVED → ENDED / EXPIRED, each by an update conditional on
 *   the state it leaves, so of two decisions at once exactly one changes the row. The requester's name and email
 *   are kept as they were, so the record still names them after that member is gone.
 * - `support_access_settings`: an organization's "approve support access automatically" (off when it has no row)
 *   and the longest access it approves that way.
 *
 * No trigger moves an organization's version here: every change of a request is journaled in the customer's
 * and in the operator's journal in its own transaction, and a journal record moves its organization's version
 * (migration 0022), so what the sign-in keeps of the support person is stale on every instance at once.
 */
import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../database';

export async function up(db: Kysely<any>): Promise<void> {
  const postgres = isPostgres(db);
  await db.schema.createTable('support_requests')
    .addColumn('request_id', postgres ? 'serial' : 'integer', (c) => (postgres ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.organization_id').onDelete('cascade'))
    .addColumn('member_id', 'text', (c) => c.notNull())
    .addColumn('requester_organization_id', 'text', (c) => c.notNull())
    .addColumn('requester_name', 'text', (c) => c.notNull())
    .addColumn('requester_email', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('hours', 'integer', (c) => c.notNull())
    .addColumn('break_glass', 'integer', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('date_requested', 'text', (c) => c.notNull())
    .addColumn('date_decided', 'text')
    .addColumn('decided_by', 'text')
    .addColumn('date_until', 'text')
    .addColumn('date_ended', 'text')
    .addColumn('ended_by', 'text')
    .execute();
  await db.schema.createIndex('support_requests_organization').on('support_requests').columns(['organization_id', 'request_id']).execute();
  // The sign-in's active accesses of a person, and the time scan's ends: only approved rows are in them.
  await db.schema.createIndex('support_requests_member').on('support_requests').columns(['member_id', 'date_until'])
    .where(sql.ref('state'), '=', 'APPROVED').execute();
  await db.schema.createIndex('support_requests_until').on('support_requests').column('date_until')
    .where(sql.ref('state'), '=', 'APPROVED').execute();

  await db.schema.createTable('support_access_settings')
    .addColumn('organization_id', 'text', (c) => c.primaryKey().references('organizations.organization_id').onDelete('cascade'))
    .addColumn('auto_approve', 'integer', (c) => c.notNull())
    .addColumn('max_hours', 'integer', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('support_access_settings').execute();
  await db.schema.dropTable('support_requests').execute();
}
