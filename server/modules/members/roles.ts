/**
 * Role assignments of a member (SPEC.md §5, §6). Assign and unassign act in the path
 * organization, which is the member's own; assignments the member holds elsewhere are listed
 * but left alone here.
 */
import type { Db } from '../../db/database';
import type { Role, Scope } from '../../../common/enums';
import { assignableRoles, canGrant, type TargetOrganization } from '../../../common/policy';
import type { MemberRole } from '../../../common/schemas/member';
import type { RequestActor } from '../../auth/actor';
import { authorize } from '../../access/authorize';
import { readableOrganizationIds } from '../../access/tree';
import { audit } from '../../db/audit';
import { badRequest, conflict, forbidden, notFound } from '../../errors';
import * as repo from './repository';
import { MISSING, lockMember, memberOf, memberSubject } from './service';
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

/** 403 with the reason unless common/policy.ts `canGrant` allows the change. */
function refuseUngrantable(actor: RequestActor, change: Parameters<typeof canGrant>[1], target: TargetOrganization, organizationName: string) {
  if (canGrant(actor, change, target)) return;
  if (change.action === 'role.assign' && change.member_id === actor.member_id) {
    throw forbidden('Nobody can give themselves a role; ask another administrator or supervisor.');
  }
  throw forbidden(
    change.scope === 'ORGANIZATION' || change.member_organization_role === 'CUSTOMER'
      ? `Your roles do not allow you to grant or take away ${change.role} in ${organizationName}.`
      : `Your roles do not allow you to grant or take away ${change.role} with a scope reaching the organizations below ${organizationName}.`,
  );
}

/**
 * POST .../roles/assign?role&scope. Assigning a role the member has with another scope changes
 * the scope. Who may grant what is common/policy.ts `canGrant`: nobody hands out more than they
 * hold, nor gives themselves a role.
 */
export async function assignRole(db: Db, actor: RequestActor, organizationId: string, memberId: string, role: Role, scope: Scope, now: Date) {
  const target = await authorize(db, actor, 'role.assign', organizationId, MISSING);
  const member = await memberOf(db, organizationId, memberId);
  if (!assignableRoles(member.organization_role).includes(role)) {
    throw badRequest(`${role} can be assigned only to members of the operator organization.`, 'role');
  }
  refuseUngrantable(actor, { action: 'role.assign', role, scope, member_id: memberId, member_organization_role: member.organization_role }, target, member.organization_name);
  await db.transaction().execute(async (tx) => {
    await lockMember(tx, memberId);
    const existing = (await repo.findAssignments(tx, memberId, role)).find((a) => a.organization_id === organizationId);
    if (existing?.scope === scope) throw conflict(`${member.member_email} already has the role ${role} (${scope}).`);
    if (existing) await repo.updateAssignmentScope(tx, memberId, organizationId, role, scope);
    else await repo.insertAssignment(tx, { member_id: memberId, organization_id: organizationId, role, scope });
    const message = existing
      ? `Changed the scope of ${role} of ${member.member_email} from ${existing.scope} to ${scope}.`
      : `Assigned ${role} (${scope}) to ${member.member_email}.`;
    await audit(tx, { reason: 'ROLE_ASSIGNED', message, organization_id: organizationId, member_email: actor.email, now, subject: memberSubject(member, { role, scope }) });
  });
  return rolesOf(db, actor, memberId);
}

/** POST .../roles/unassign?role: only the path organization's assignment. */
export async function unassignRole(db: Db, actor: RequestActor, organizationId: string, memberId: string, role: Role, now: Date) {
  const target = await authorize(db, actor, 'role.unassign', organizationId, MISSING);
  const member = await memberOf(db, organizationId, memberId);
  await db.transaction().execute(async (tx) => {
    await lockMember(tx, memberId);
    const assignments = await repo.findAssignments(tx, memberId, role);
    const here = assignments.find((a) => a.organization_id === organizationId);
    if (!here) {
      if (assignments.length > 0) {
        throw conflict(`The role ${role} of ${member.member_email} belongs to another organization and cannot be unassigned here.`);
      }
      throw notFound(`${member.member_email} has no role ${role} in ${member.organization_name}.`);
    }
    // Taking a role away needs the same power as giving it, so nobody demotes someone above them.
    const change = { action: 'role.unassign', role, scope: here.scope, member_id: memberId, member_organization_role: member.organization_role } as const;
    refuseUngrantable(actor, change, target, member.organization_name);
    await keepAnAdministrator(tx, { member_id: memberId, organization_id: organizationId, role });
    await repo.deleteAssignment(tx, memberId, organizationId, role);
    const message = `Unassigned ${role} from ${member.member_email}.`;
    await audit(tx, { reason: 'ROLE_UNASSIGNED', message, organization_id: organizationId, member_email: actor.email, now, subject: memberSubject(member, { role }) });
  });
  return rolesOf(db, actor, memberId);
}
