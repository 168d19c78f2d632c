/**
 * Role assignments of a member (SPEC.md §5, §6). Assign and unassign act in the path
 * organization, which is the member's own; assignments the member holds elsewhere are listed
 * but left alone here.
 */
import type { Db } from '../../db/database';
import type { Role, Scope } from '../../../common/enums';
import { assignableRoles, can } from '../../../common/policy';
import type { MemberRole } from '../../../common/schemas/member';
import type { RequestActor } from '../../auth/actor';
import { authorize } from '../../auth/authorize';
import { readableOrganizationIds } from '../organizations/tree';
import { audit } from '../audit/service';
import { badRequest, conflict, forbidden, notFound } from '../../errors';
import * as repo from './repository';
import { MISSING, lockMember, memberOf } from './service';
import { keepAnAdministrator } from './rules';

async function rolesOf(db: Db, actor: RequestActor, memberId: string): Promise<MemberRole[]> {
  const rows = await repo.assignmentsOf(db, [memberId], await readableOrganizationIds(db, actor));
  return rows.map(({ member_id: _m, ...role }) => role);
}

/** GET .../members/{memberId}/roles: every assignment of the member in organizations the caller can read. */
export async function listRoles(db: Db, actor: RequestActor, organizationId: string, memberId: string) {
  await authorize(db, actor, 'read', organizationId, MISSING);
  await memberOf(db, organizationId, memberId);
  return rolesOf(db, actor, memberId);
}

/**
 * POST .../roles/assign?role&scope. Assigning a role the member has with another scope changes
 * the scope. A MANAGED or COOPERATION scope reaches the organizations below, so the actor must
 * reach them too: nobody hands out more than they hold (customers have nothing below them).
 */
export async function assignRole(db: Db, actor: RequestActor, organizationId: string, memberId: string, role: Role, scope: Scope, now: Date) {
  const target = await authorize(db, actor, 'role.assign', organizationId, MISSING);
  const member = await memberOf(db, organizationId, memberId);
  if (!assignableRoles(member.organization_role).includes(role)) {
    throw badRequest(`${role} can be assigned only to members of the operator organization.`, 'role');
  }
  const below = { organization_id: `below:${organizationId}`, ancestor_ids: [organizationId, ...target.ancestor_ids] };
  if (scope !== 'ORGANIZATION' && member.organization_role !== 'CUSTOMER' && !can(actor, 'role.assign', below)) {
    throw forbidden(`Your roles do not reach the organizations below ${member.organization_name}; assign the ORGANIZATION scope.`);
  }
  await db.transaction().execute(async (tx) => {
    await lockMember(tx, memberId);
    const existing = (await repo.findAssignments(tx, memberId, role)).find((a) => a.organization_id === organizationId);
    if (existing?.scope === scope) throw conflict(`${member.member_email} already has the role ${role} (${scope}).`);
    if (existing) await repo.updateAssignmentScope(tx, memberId, organizationId, role, scope);
    else await repo.insertAssignment(tx, { member_id: memberId, organization_id: organizationId, role, scope });
    const message = existing
      ? `Changed the scope of ${role} of ${member.member_email} from ${existing.scope} to ${scope}.`
      : `Assigned ${role} (${scope}) to ${member.member_email}.`;
    await audit(tx, { reason: 'ROLE_ASSIGNED', message, organization_id: organizationId, member_email: actor.email, now });
  });
  return rolesOf(db, actor, memberId);
}

/** POST .../roles/unassign?role: only the path organization's assignment. */
export async function unassignRole(db: Db, actor: RequestActor, organizationId: string, memberId: string, role: Role, now: Date) {
  await authorize(db, actor, 'role.unassign', organizationId, MISSING);
  const member = await memberOf(db, organizationId, memberId);
  await db.transaction().execute(async (tx) => {
    await lockMember(tx, memberId);
    const assignments = await repo.findAssignments(tx, memberId, role);
    if (!assignments.some((a) => a.organization_id === organizationId)) {
      if (assignments.length > 0) {
        throw conflict(`The role ${role} of ${member.member_email} belongs to another organization and cannot be unassigned here.`);
      }
      throw notFound(`${member.member_email} has no role ${role} in ${member.organization_name}.`);
    }
    await keepAnAdministrator(tx, { member_id: memberId, organization_id: organizationId, role });
    await repo.deleteAssignment(tx, memberId, organizationId, role);
    const message = `Unassigned ${role} from ${member.member_email}.`;
    await audit(tx, { reason: 'ROLE_UNASSIGNED', message, organization_id: organizationId, member_email: actor.email, now });
  });
  return rolesOf(db, actor, memberId);
}
