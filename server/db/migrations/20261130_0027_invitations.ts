/**
 * Invitations (issue 34 item 2, docs/decisions.md "Invitations"): an administrator invites a person by email
 * with a role and scope; the person becomes a member with exactly that role when they first sign in with that
 * verified address, before the invitation expires and unless it was revoked. Its state is its dates: accepted,
 * revoked, else pending until `date_expires` (exclusive), then expired; nothing runs to expire it.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('invitations')
    .addColumn('invitation_id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.organization_id').onDelete('cascade'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('invited_by', 'text')
    .addColumn('date_created', 'text', (c) => c.notNull())
    // The last (re)send: a resend renews the expiry from then.
    .addColumn('date_sent', 'text', (c) => c.notNull())
    .addColumn('date_expires', 'text', (c) => c.notNull())
    .addColumn('date_accepted', 'text')
    .addColumn('accepted_member_id', 'text')
    .addColumn('date_revoked', 'text')
    .addColumn('revoked_by', 'text')
    .execute();
  // The organization's list, newest first.
  await db.schema.createIndex('invitations_organization').on('invitations').columns(['organization_id', 'date_created']).execute();
  // Sign-in looks for the open invitations of one address.
  await db.schema
    .createIndex('invitations_open_email').on('invitations').columns(['email', 'date_created'])
    .where(sql.ref('date_accepted'), 'is', null).where(sql.ref('date_revoked'), 'is', null)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('invitations').execute();
}
