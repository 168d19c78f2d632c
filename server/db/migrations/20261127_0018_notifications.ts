/**
 * Notifications and webhooks (issue 13, docs/decisions.md "Notifications"):
 *
 * - `events`: the outbox. The audit path writes an event in the transaction of the change it
 *   records, and the time scan writes the time-driven ones; the dispatcher fans each out once
 *   (notices, mails, webhook deliveries, in one transaction) and stamps `date_dispatched`.
 * - `event_marks`: one row per time-driven event made (object, kind, threshold, end of validity):
 *   its key is what makes "once per (object, threshold)" hold across restarts and instances.
 * - `notification_settings`: an organization's rules; no row means the defaults.
 * - `notices`: the bell, one row per recipient member.
 * - `mail_outbox`: mails to send, retried with backoff.
 * - `webhook_endpoints`, `webhook_deliveries`, `webhook_attempts`: endpoints, one delivery per
 *   (endpoint, event), and every attempt with its status code and duration.
 * - `scan_state`: how far the time scan has looked (one row).
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter.constructor.name === 'PostgresAdapter';
  const serial = (table: string, column: string) =>
    db.schema.createTable(table).addColumn(column, postgres ? 'serial' : 'integer', (c) => (postgres ? c.primaryKey() : c.primaryKey().autoIncrement()));

  await serial('events', 'event_id')
    .addColumn('event_type', 'text', (c) => c.notNull())
    .addColumn('organization_id', 'text')
    .addColumn('subject_type', 'text', (c) => c.notNull())
    .addColumn('subject_id', 'text', (c) => c.notNull())
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('date_created', 'text', (c) => c.notNull())
    .addColumn('date_dispatched', 'text')
    .execute();
  await db.schema.createIndex('events_waiting').on('events').column('event_id').where(sql.ref('date_dispatched'), 'is', null).execute();

  await db.schema
    .createTable('event_marks')
    .addColumn('subject_type', 'text', (c) => c.notNull())
    .addColumn('subject_id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('days', 'integer', (c) => c.notNull())
    .addColumn('date_end', 'text', (c) => c.notNull())
    .addColumn('date_created', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('event_marks_pk', ['subject_type', 'subject_id', 'kind', 'days', 'date_end'])
    .execute();

  await db.schema
    .createTable('scan_state')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('date_scanned', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('notification_settings')
    .addColumn('organization_id', 'text', (c) => c.primaryKey().references('organizations.organization_id').onDelete('cascade'))
    .addColumn('settings', 'text', (c) => c.notNull())
    .addColumn('date_updated', 'text', (c) => c.notNull())
    .execute();

  await serial('notices', 'notice_id')
    .addColumn('member_id', 'text', (c) => c.notNull().references('members.member_id').onDelete('cascade'))
    .addColumn('event_id', 'integer', (c) => c.notNull())
    .addColumn('organization_id', 'text')
    .addColumn('event_type', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('link', 'text')
    .addColumn('date_created', 'text', (c) => c.notNull())
    .addColumn('date_read', 'text')
    .execute();
  await db.schema.createIndex('notices_member').on('notices').columns(['member_id', 'notice_id']).execute();
  await db.schema.createIndex('notices_unread').on('notices').columns(['member_id', 'notice_id']).where(sql.ref('date_read'), 'is', null).execute();

  await serial('mail_outbox', 'mail_id')
    .addColumn('event_id', 'integer', (c) => c.notNull())
    .addColumn('organization_id', 'text')
    .addColumn('recipients', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('text_body', 'text', (c) => c.notNull())
    .addColumn('html_body', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'text', (c) => c.notNull())
    .addColumn('last_error', 'text')
    .addColumn('date_sent', 'text')
    .addColumn('date_failed', 'text')
    .addColumn('date_created', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('mail_outbox_due').on('mail_outbox').columns(['next_attempt_at', 'mail_id'])
    .where(sql.ref('date_sent'), 'is', null).where(sql.ref('date_failed'), 'is', null)
    .execute();

  await db.schema
    .createTable('webhook_endpoints')
    .addColumn('endpoint_id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.organization_id').onDelete('cascade'))
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('events', 'text', (c) => c.notNull())
    .addColumn('active', 'integer', (c) => c.notNull())
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('previous_secret', 'text')
    .addColumn('previous_secret_until', 'text')
    .addColumn('date_created', 'text', (c) => c.notNull())
    .addColumn('date_updated', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('webhook_endpoints_organization').on('webhook_endpoints').columns(['organization_id', 'endpoint_id']).execute();

  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('delivery_id', 'text', (c) => c.primaryKey())
    .addColumn('endpoint_id', 'text', (c) => c.notNull().references('webhook_endpoints.endpoint_id').onDelete('cascade'))
    .addColumn('event_id', 'integer', (c) => c.notNull())
    .addColumn('event_type', 'text', (c) => c.notNull())
    // Deliveries of one object to one endpoint go in event order (issue 13: "in order per object").
    .addColumn('subject_key', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'text', (c) => c.notNull())
    .addColumn('date_created', 'text', (c) => c.notNull())
    .addColumn('date_finished', 'text')
    .execute();
  await db.schema.createIndex('webhook_deliveries_endpoint').on('webhook_deliveries').columns(['endpoint_id', 'event_id']).execute();
  await db.schema
    .createIndex('webhook_deliveries_due').on('webhook_deliveries').columns(['next_attempt_at', 'event_id'])
    .where(sql.ref('status'), '=', 'pending')
    .execute();
  await db.schema
    .createIndex('webhook_deliveries_order').on('webhook_deliveries').columns(['endpoint_id', 'subject_key', 'event_id'])
    .where(sql.ref('status'), '=', 'pending')
    .execute();

  await serial('webhook_attempts', 'attempt_id')
    .addColumn('delivery_id', 'text', (c) => c.notNull().references('webhook_deliveries.delivery_id').onDelete('cascade'))
    .addColumn('date_attempted', 'text', (c) => c.notNull())
    .addColumn('status_code', 'integer')
    .addColumn('duration_ms', 'integer', (c) => c.notNull())
    .addColumn('error', 'text')
    .execute();
  await db.schema.createIndex('webhook_attempts_delivery').on('webhook_attempts').columns(['delivery_id', 'attempt_id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['webhook_attempts', 'webhook_deliveries', 'webhook_endpoints', 'mail_outbox', 'notices', 'notification_settings', 'scan_state', 'event_marks', 'events']) {
    await db.schema.dropTable(table).execute();
  }
}
