/**
 * Approval work reaches the people who can act on it (issue 34 item 1): a request waiting for
 * approval (an upload, a license request, the "waited N days" reminder) is told to the operator's
 * staff who may approve it there, besides the members its organization's rules name. Who may
 * approve is the policy's `can`, over the staff's operator assignments and the target's ancestors.
 */
import { can, type Action, type Actor, type Assignment } from '../../../common/policy';
import type { EventType } from '../../../common/events';
import { loadTarget } from '../../access/tree';
import type { Tx } from '../../db/database';
import { HttpError } from '../../errors';
import { roleCounts } from '../../db/role-end';

/** The events that are approval work, with the action that settles it. */
const APPROVAL_WORK: Partial<Record<EventType, Action>> = {
  'certificate.uploaded': 'certificate.approve',
  'certificate.approval_waiting': 'certificate.approve',
  'license.requested': 'license.approve',
  'license.approval_waiting': 'license.approve',
};

/** Is the event approval work (what a daily digest gathers instead of a mail each)? */
export const isApprovalWork = (type: EventType) => !!APPROVAL_WORK[type];

/**
 * The operator organization when the event is approval work: its webhook endpoints receive approval work of every
 * organization (the operator reads them all), as its approvers are told of it. Null for other events.
 */
export async function approvalWorkOperator(tx: Tx, type: EventType): Promise<string | null> {
  if (!APPROVAL_WORK[type]) return null;
  const row = await tx.selectFrom('organizations').select('organization_id').where('organization_role', '=', 'OPERATOR').executeTakeFirst();
  return row?.organization_id ?? null;
}

export interface Approver {
  member_id: string;
  member_email: string;
  /** The operator organization: whose notification rules decide the approver's mail. */
  organization_id: string;
}

/**
 * The unbanned members of the operator (`approvalWorkOperator`, null for other events) whose roles there let them
 * settle this event's request in its organization.
 */
export async function approversOf(tx: Tx, type: EventType, operatorId: string | null, organizationId: string, now: Date): Promise<Approver[]> {
  const action = APPROVAL_WORK[type];
  if (!action || !operatorId) return [];
  // From the operator's own members (an index), not from every member in email order filtered by organization:
  // SQLite chose the latter, 14 ms per event at 20,000 members, against microseconds.
  const rows = await tx.selectFrom('members')
    .innerJoin('role_assignments', 'role_assignments.member_id', 'members.member_id')
    .select(['members.member_id', 'members.member_email', 'role_assignments.role', 'role_assignments.scope'])
    .where('members.organization_id', '=', operatorId)
    .where('role_assignments.organization_id', '=', operatorId)
    .where('role_assignments.role', 'in', ['APPROVER', 'SUPERVISOR'])
    .where(roleCounts('role_assignments', now))
    .where('members.date_member_banned', 'is', null)
    .orderBy('members.member_email')
    .execute();
  if (rows.length === 0) return [];
  // Its chain of parents alone (not the whole parent map); an organization removed since has nobody to approve for.
  const target = await loadTarget(tx, organizationId).catch((error: unknown) => {
    if (error instanceof HttpError && error.statusCode === 404) return null;
    throw error;
  });
  if (!target) return [];
  const byMember = new Map<string, Approver & { roles: Assignment[] }>();
  for (const r of rows) {
    const entry = byMember.get(r.member_id) ?? { member_id: r.member_id, member_email: r.member_email, organization_id: operatorId, roles: [] };
    entry.roles.push({ organization_id: operatorId, organization_role: 'OPERATOR', role: r.role, scope: r.scope });
    byMember.set(r.member_id, entry);
  }
  return [...byMember.values()]
    .filter((m) => can({ member_id: m.member_id, organization_id: m.organization_id, organization_role: 'OPERATOR', roles: m.roles } satisfies Actor, action, target))
    .map(({ member_id, member_email, organization_id }) => ({ member_id, member_email, organization_id }));
}
