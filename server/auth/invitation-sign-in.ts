/**
 * Accepting an invitation at sign-in (issue 34 item 2): a person with no membership who signs in with a
 * verified address that has a pending invitation becomes a member of its organization with exactly the
 * invited role and scope, journaled. It comes before the trusted domains (actor.ts): the
 * invitation names the organization and the role, a domain only guesses MEMBER.
 */
import { randomUUID } from 'node:crypto';
import type { Db, Queryable } from '../db/database';
import { audit } from '../db/audit';
import { forbidden } from '../errors';
import type { Identity } from './tokens';

/** The oldest open invitation of this address, anywhere, that has not expired at `now`: the one sign-in accepts. */
function firstPendingFor(db: Queryable, email: string, now: Date) {
  return db.selectFrom('invitations as i')
    .innerJoin('organizations as o', 'o.organization_id', 'i.organization_id')
    .selectAll('i')
    .select(['o.organization_name', 'o.date_organization_banned'])
    .where('i.email', '=', email)
    .where('i.date_accepted', 'is', null).where('i.date_revoked', 'is', null)
    .where('i.date_expires', '>', now.toISOString())
    .orderBy('i.date_created').orderBy('i.invitation_id')
    .executeTakeFirst();
}

/** Accepts an open invitation that has not expired at `now`; answers whether it was (exactly one caller wins). */
async function acceptInvitation(db: Queryable, invitationId: string, memberId: string, now: Date): Promise<boolean> {
  const result = await db.updateTable('invitations')
    .set({ date_accepted: now.toISOString(), accepted_member_id: memberId })
    .where('invitation_id', '=', invitationId).where('date_accepted', 'is', null).where('date_revoked', 'is', null)
    .where('date_expires', '>', now.toISOString())
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Accepts the oldest pending invitation of the identity's address, if any. Answers whether one was found
 * (accepted here, or by a concurrent first call of the same person): the caller then looks the member up.
 * An invitation revoked or expired in the meantime is not accepted: exactly one of accept and revoke wins.
 */
export async function acceptAtSignIn(db: Db, identity: Identity, now: Date): Promise<boolean> {
  const invitation = await firstPendingFor(db, identity.email, now);
  if (!invitation) return false;
  // A banned organization admits nobody new, invited or not.
  if (invitation.date_organization_banned) throw forbidden(`${invitation.organization_name} is banned from the portal.`, 'AccessError');
  const name = identity.name ?? ([identity.given_name, identity.family_name].filter(Boolean).join(' ') || identity.email);
  try {
    await db.transaction().execute(async (tx) => {
      const memberId = randomUUID();
      // The conditional update is the decision: a revoke, an expiry or another accept that came first leaves it 0 rows.
      if (!(await acceptInvitation(tx, invitation.invitation_id, memberId, now))) return;
      await tx.insertInto('members').values({
        member_id: memberId, organization_id: invitation.organization_id, member_email: identity.email, name,
        given_name: identity.given_name, family_name: identity.family_name,
        job_role: null, mobile_phone: null, office_phone: null, address: null, ban_note: null, date_member_banned: null,
        date_created: now.toISOString(),
      }).execute();
      await tx.insertInto('role_assignments')
        .values({ member_id: memberId, organization_id: invitation.organization_id, role: invitation.role, scope: invitation.scope, date_assigned: now.toISOString() })
        .execute();
      await audit(tx, {
        reason: 'INVITATION_ACCEPTED',
        message: `${identity.email} joined ${invitation.organization_name} as ${invitation.role} (${invitation.scope}), invited by ${invitation.invited_by ?? 'an administrator'}.`,
        organization_id: invitation.organization_id, member_email: identity.email, now,
      });
    });
  } catch (error) {
    // Two first calls at once (SQLite, or a member made another way meanwhile): the member exists; use it.
    const member = await db.selectFrom('members').select('member_id').where('member_email', '=', identity.email).executeTakeFirst();
    if (!member) throw error;
  }
  return true;
}
