/** Queries of the invitations (migration 0027). Every function takes the database or a transaction. */
import type { Insertable, Selectable } from 'kysely';
import type { Queryable } from '../../db/database';
import type { InvitationsTable } from '../../db/schema';

export type InvitationRow = Selectable<InvitationsTable>;

/** The organization an invitation is for, as its checks and messages need it. */
export function organizationOf(db: Queryable, organizationId: string) {
  return db.selectFrom('organizations')
    .select(['organization_id', 'organization_name', 'organization_role', 'date_organization_banned'])
    .where('organization_id', '=', organizationId)
    .executeTakeFirst();
}

/** One page of the organization's invitations, newest first; `open`: neither accepted nor revoked. */
export async function listInvitations(db: Queryable, organizationId: string, open: boolean, offset: number, limit: number) {
  let query = db.selectFrom('invitations').where('organization_id', '=', organizationId);
  if (open) query = query.where('date_accepted', 'is', null).where('date_revoked', 'is', null);
  const [rows, count] = await Promise.all([
    query.selectAll().orderBy('date_created', 'desc').orderBy('invitation_id').offset(offset).limit(limit).execute(),
    query.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

export function findInvitation(db: Queryable, organizationId: string, invitationId: string) {
  return db.selectFrom('invitations').selectAll()
    .where('organization_id', '=', organizationId).where('invitation_id', '=', invitationId)
    .executeTakeFirst();
}

/** The member with this address, anywhere, with the name of their organization. */
export function memberByEmail(db: Queryable, email: string) {
  return db.selectFrom('members as m')
    .innerJoin('organizations as o', 'o.organization_id', 'm.organization_id')
    .select(['m.member_id', 'm.organization_id', 'o.organization_name'])
    .where('m.member_email', '=', email)
    .executeTakeFirst();
}

/** The organization's open invitation of this address that has not expired at `now`, if any. */
export function pendingInvitation(db: Queryable, organizationId: string, email: string, now: Date) {
  return db.selectFrom('invitations').selectAll()
    .where('organization_id', '=', organizationId).where('email', '=', email)
    .where('date_accepted', 'is', null).where('date_revoked', 'is', null)
    .where('date_expires', '>', now.toISOString())
    .executeTakeFirst();
}

export async function insertInvitation(db: Queryable, row: Insertable<InvitationsTable>): Promise<void> {
  await db.insertInto('invitations').values(row).execute();
}

/** Renews an open invitation; answers whether it was still open (a concurrent accept or revoke wins otherwise). */
export async function renewInvitation(db: Queryable, invitationId: string, by: string, sent: Date, expires: Date): Promise<boolean> {
  const result = await db.updateTable('invitations')
    .set({ date_sent: sent.toISOString(), date_expires: expires.toISOString(), invited_by: by })
    .where('invitation_id', '=', invitationId).where('date_accepted', 'is', null).where('date_revoked', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Revokes an open invitation; answers whether it was still open. */
export async function revokeInvitation(db: Queryable, invitationId: string, by: string, now: Date): Promise<boolean> {
  const result = await db.updateTable('invitations')
    .set({ date_revoked: now.toISOString(), revoked_by: by })
    .where('invitation_id', '=', invitationId).where('date_accepted', 'is', null).where('date_revoked', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
