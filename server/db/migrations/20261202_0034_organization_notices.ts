/**
 * An event's notice to the members its organization's rules name is one row, not one per member (issue 29: an
 * approval in an organization of 2,000 wrote 539 rows whose index entries lay on as many pages, 10–20 ms of SQLite
 * per event). Such a row has no `member_id` and the roles it was for in `audience` (common/notice-audience.ts); the
 * bell shows it to the members who held one of them when it was made (modules/notifications/notices.ts). Notices
 * to named people (a role's end, a support access, the operator's approvers) stay one per person.
 * - `notices_organization`: an organization's notices to its roles, newest first.
 * - `notice_reads`: a person's read marks on such notices; `notice_read_through`: the notice up to which all of
 *   them are read ("mark all read"), so the unread count never scans what was read long ago.
 *
 * SQLite cannot drop NOT NULL in place and refuses a rename while other tables' triggers hold the archive's upsert
 * alias (migration 0022), so the table is copied out, made again and copied back.
 */
import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../database';

const COLUMNS = 'notice_id, member_id, event_id, organization_id, event_type, title, link, date_created, date_read';

export async function up(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    await sql`alter table notices alter column member_id drop not null`.execute(db);
    await db.schema.alterTable('notices').addColumn('audience', 'integer').execute();
  } else {
    await sql`create table notices_copy as select ${sql.raw(COLUMNS)} from notices`.execute(db);
    await db.schema.dropTable('notices').execute();
    await db.schema
      .createTable('notices')
      .addColumn('notice_id', 'integer', (c) => c.primaryKey().autoIncrement())
      .addColumn('member_id', 'text', (c) => c.references('members.member_id').onDelete('cascade'))
      .addColumn('event_id', 'integer', (c) => c.notNull())
      .addColumn('organization_id', 'text')
      .addColumn('event_type', 'text', (c) => c.notNull())
      .addColumn('title', 'text', (c) => c.notNull())
      .addColumn('link', 'text')
      .addColumn('date_created', 'text', (c) => c.notNull())
      .addColumn('date_read', 'text')
      .addColumn('audience', 'integer')
      .execute();
    await sql`insert into notices (${sql.raw(COLUMNS)}) select ${sql.raw(COLUMNS)} from notices_copy`.execute(db);
    await db.schema.dropTable('notices_copy').execute();
    await db.schema.createIndex('notices_member').on('notices').columns(['member_id', 'notice_id']).execute();
    await db.schema.createIndex('notices_unread').on('notices').columns(['member_id', 'notice_id']).where(sql.ref('date_read'), 'is', null).execute();
  }
  await db.schema.createIndex('notices_organization').on('notices').columns(['organization_id', 'notice_id'])
    .where(sql.ref('member_id'), 'is', null).execute();
  await db.schema
    .createTable('notice_reads')
    .addColumn('member_id', 'text', (c) => c.notNull().references('members.member_id').onDelete('cascade'))
    .addColumn('notice_id', 'integer', (c) => c.notNull().references('notices.notice_id').onDelete('cascade'))
    .addColumn('date_read', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('notice_reads_pk', ['member_id', 'notice_id'])
    .execute();
  await db.schema
    .createTable('notice_read_through')
    .addColumn('member_id', 'text', (c) => c.primaryKey().references('members.member_id').onDelete('cascade'))
    .addColumn('notice_id', 'integer', (c) => c.notNull())
    .addColumn('date_read', 'text', (c) => c.notNull())
    .execute();
}

/** Back to a row per member: an organization's notices are dropped (the bell loses them, nothing else does). */
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('notice_read_through').execute();
  await db.schema.dropTable('notice_reads').execute();
  await db.schema.dropIndex('notices_organization').execute();
  await db.deleteFrom('notices').where('member_id', 'is', null).execute();
  if (isPostgres(db)) {
    await db.schema.alterTable('notices').dropColumn('audience').execute();
    await sql`alter table notices alter column member_id set not null`.execute(db);
  }
  // SQLite keeps the nullable column and `audience`: the code before this migration always names a member.
}
