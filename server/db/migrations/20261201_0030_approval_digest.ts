/**
 * The approvers' daily digest (issue 34 item 1, docs/decisions.md "Approval digest"):
 * - `mail_preferences`: a person's own choice for the mails about approval work: one per request (`each`, what
 *   nobody having chosen means) or one digest a day (`digest`), with the zone whose morning it comes in.
 * - `digest_marks`: one row per person and local day a digest was decided for. Its key refuses a second one, so
 *   two instances (or a restart) never mail the same day twice; `waiting` says what was found (0: nothing sent).
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('mail_preferences')
    .addColumn('member_id', 'text', (c) => c.primaryKey().references('members.member_id').onDelete('cascade'))
    .addColumn('approval_mail', 'text', (c) => c.notNull())
    .addColumn('time_zone', 'text', (c) => c.notNull())
    .addColumn('date_updated', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('digest_marks')
    .addColumn('member_id', 'text', (c) => c.notNull().references('members.member_id').onDelete('cascade'))
    .addColumn('digest_day', 'text', (c) => c.notNull())
    .addColumn('waiting', 'integer', (c) => c.notNull())
    .addColumn('date_created', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('digest_marks_pk', ['member_id', 'digest_day'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('digest_marks').execute();
  await db.schema.dropTable('mail_preferences').execute();
}
