/**
 * Invitations (issue 34 item 2; docs/decisions.md "Invitations"): list, invite, resend, revoke. Who may is
 * common/policy.ts `canInvite`, the rule of assigning the same role and scope. Each change is journaled in its
 * own transaction; sending and resending are `member.invited` events, which mail the invitee (notifications).
 */
import { randomUUID } from 'node:crypto';
import { formatUtcDateTime } from '../../../common/dates';
import { INVITATION_MS, invitationStatus } from '../../../common/invitations';
import { assignableRoles, canInvite, type Action, type TargetOrganization } from '../../../common/policy';
import type { OrganizationRole } from '../../../common/enums';
import type { Invitation, InvitationCreate, InvitationListQuery } from '../../../common/schemas/invitation';
import type { RequestActor } from '../../auth/actor';
import { authorize } from '../../access/authorize';
import { audit, type AuditSubject } from '../../db/audit';
import type { Db, Queryable, Tx } from '../../db/database';
import { lockRow } from '../../db/lock';
import { badRequest, conflict, forbidden, notFound } from '../../errors';
import * as repo from './repository';

const MISSING = 'Invitation not found.';

type Organization = NonNullable<Awaited<ReturnType<typeof repo.organizationOf>>>;

/** The caller may invite here; answers the target and the organization. */
async function authorized(db: Queryable, actor: RequestActor, organizationId: string) {
  const target = await authorize(db, actor, 'member.invite', organizationId);
  const organization = await repo.organizationOf(db, organizationId);
  if (!organization) throw notFound('Organization not found.');
  return { target, organization };
}

function toInvitation(row: repo.InvitationRow, actor: RequestActor, organizationRole: OrganizationRole, target: TargetOrganization, now: Date): Invitation {
  const abilities: Action[] = canInvite(actor, row, organizationRole, target) ? ['member.invite'] : [];
  return {
    invitation_id: row.invitation_id, organization_id: row.organization_id, email: row.email, role: row.role, scope: row.scope,
    status: invitationStatus(row, now), invited_by: row.invited_by, date_created: row.date_created, date_sent: row.date_sent,
    date_expires: row.date_expires, date_accepted: row.date_accepted, date_revoked: row.date_revoked, abilities,
  };
}

/** 403 unless the caller may hand out this role and scope here. */
function refuseUngrantable(actor: RequestActor, invitation: { role: Invitation['role']; scope: Invitation['scope'] }, organization: Organization, target: TargetOrganization) {
  if (canInvite(actor, invitation, organization.organization_role, target)) return;
  throw forbidden(`Your roles do not allow you to give ${invitation.role} (${invitation.scope}) in ${organization.organization_name}, so you cannot invite with it.`);
}

/** 409 for a banned organization: nobody joins it (sign-in would refuse them), so nobody is invited to. Revoking stays allowed. */
function refuseBanned(organization: Organization) {
  if (organization.date_organization_banned) throw conflict(`${organization.organization_name} is banned from the portal: nobody can join it.`);
}

/** 409 when the address already belongs to a member: a person is a member of one organization. */
async function refuseMember(db: Queryable, email: string, organization: Organization) {
  const member = await repo.memberByEmail(db, email);
  if (!member) return;
  throw conflict(
    member.organization_id === organization.organization_id
      ? `${email} is already a member of ${organization.organization_name}.`
      : `${email} is already a member of another organization; a person can be a member of one organization only.`,
    'email',
  );
}

/** What the journal and the `member.invited` event say of it; the mail is written from this (notifications/invitation-mail.ts). */
function subjectOf(row: repo.InvitationRow, organization: Organization): AuditSubject {
  return {
    type: 'invitation', id: row.invitation_id,
    details: { email: row.email, role: row.role, scope: row.scope, organization_name: organization.organization_name, date_expires: row.date_expires, invited_by: row.invited_by },
  };
}

/** GET .../invitations: a page, newest first, and the total. */
export async function listInvitations(db: Db, actor: RequestActor, organizationId: string, query: InvitationListQuery, now: Date) {
  const { target, organization } = await authorized(db, actor, organizationId);
  const { rows, total } = await repo.listInvitations(db, organizationId, query.status === 'open', query.offset, query.limit);
  return { items: rows.map((row) => toInvitation(row, actor, organization.organization_role, target, now)), total };
}

/** POST .../invitations: a new invitation, valid INVITATION_DAYS; refused, with nothing stored, when it cannot be. */
export async function invite(db: Db, actor: RequestActor, organizationId: string, input: InvitationCreate, now: Date): Promise<Invitation> {
  const { target, organization } = await authorized(db, actor, organizationId);
  if (!assignableRoles(organization.organization_role).includes(input.role)) {
    throw badRequest(`${input.role} can be given only to members of the operator organization.`, 'role');
  }
  refuseUngrantable(actor, input, organization, target);
  refuseBanned(organization);
  const row = await db.transaction().execute(async (tx) => {
    // Two invitations of one address at once: the second waits here and then sees the first.
    await lockRow(tx, 'organizations', 'organization_id', organizationId);
    await refuseMember(tx, input.email, organization);
    const open = await repo.pendingInvitation(tx, organizationId, input.email, now);
    if (open) {
      throw conflict(`${input.email} is already invited to ${organization.organization_name} until ${formatUtcDateTime(open.date_expires)}; resend that invitation instead.`, 'email');
    }
    const at = now.toISOString();
    const row: repo.InvitationRow = {
      invitation_id: randomUUID(), organization_id: organizationId, email: input.email, role: input.role, scope: input.scope,
      invited_by: actor.email, date_created: at, date_sent: at, date_expires: new Date(now.getTime() + INVITATION_MS).toISOString(),
      date_accepted: null, accepted_member_id: null, date_revoked: null, revoked_by: null,
    };
    await repo.insertInvitation(tx, row);
    await audit(tx, {
      reason: 'INVITATION_SENT', message: `Invited ${input.email} to join as ${input.role} (${input.scope}).`,
      organization_id: organizationId, member_email: actor.email, now, subject: subjectOf(row, organization),
    });
    return row;
  });
  return toInvitation(row, actor, organization.organization_role, target, now);
}

/** The invitation, locked for the change (db/lock.ts), or 404; 403 unless the caller may give its role. */
async function lockedInvitation(tx: Tx, actor: RequestActor, invitationId: string, organization: Organization, target: TargetOrganization) {
  if (!(await lockRow(tx, 'invitations', 'invitation_id', invitationId))) throw notFound(MISSING);
  const row = await repo.findInvitation(tx, organization.organization_id, invitationId);
  if (!row) throw notFound(MISSING);
  refuseUngrantable(actor, row, organization, target);
  if (row.date_accepted) throw conflict(`${row.email} has already accepted this invitation.`);
  if (row.date_revoked) throw conflict(`This invitation of ${row.email} was revoked; invite them again.`);
  return row;
}

/**
 * POST .../invitations/{invitationId}/resend: mailed again, valid INVITATION_DAYS from now (expired ones too:
 * resending is how an administrator gives someone who missed the week another one).
 */
export async function resend(db: Db, actor: RequestActor, organizationId: string, invitationId: string, now: Date): Promise<Invitation> {
  const { target, organization } = await authorized(db, actor, organizationId);
  const row = await db.transaction().execute(async (tx) => {
    const row = await lockedInvitation(tx, actor, invitationId, organization, target);
    refuseBanned(organization);
    await refuseMember(tx, row.email, organization);
    const expires = new Date(now.getTime() + INVITATION_MS);
    if (!(await repo.renewInvitation(tx, invitationId, actor.email, now, expires))) throw conflict(`This invitation of ${row.email} is no longer open.`);
    const renewed = { ...row, date_sent: now.toISOString(), date_expires: expires.toISOString(), invited_by: actor.email };
    await audit(tx, {
      reason: 'INVITATION_RESENT', message: `Resent the invitation of ${row.email} as ${row.role} (${row.scope}).`,
      organization_id: organizationId, member_email: actor.email, now, subject: subjectOf(renewed, organization),
    });
    return renewed;
  });
  return toInvitation(row, actor, organization.organization_role, target, now);
}

/** DELETE .../invitations/{invitationId}: revoked for good; signing in with the address then does nothing. */
export async function revoke(db: Db, actor: RequestActor, organizationId: string, invitationId: string, now: Date): Promise<void> {
  const { target, organization } = await authorized(db, actor, organizationId);
  await db.transaction().execute(async (tx) => {
    const row = await lockedInvitation(tx, actor, invitationId, organization, target);
    if (!(await repo.revokeInvitation(tx, invitationId, actor.email, now))) throw conflict(`This invitation of ${row.email} is no longer open.`);
    await audit(tx, {
      reason: 'INVITATION_REVOKED', message: `Revoked the invitation of ${row.email} as ${row.role} (${row.scope}).`,
      organization_id: organizationId, member_email: actor.email, now,
    });
  });
}
