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

/** The longest a time-boxed role may run (issue 33). */
const MAX_DAYS = 365;
const DAY = 86_400_000;

/** 400 naming `until` unless it lies after `now` and at most 365 days ahead. */
function checkUntil(until: string | undefined, now: Date) {
  if (until === undefined) return;
  const at = Date.parse(until);
  if (at <= now.getTime()) throw badRequest(`until must lie in the future; ${until} has passed.`, 'until');
  if (at > now.getTime() + MAX_DAYS * DAY) throw badRequest(`until may be at most ${MAX_DAYS} days ahead.`, 'until');
}

const ending = (until: string | null) => (until ? ` until ${until}` : '');

/**
 * POST .../roles/assign?role&scope[&until]. Assigning a role the member has changes its scope and its end (extend,
 * shorten, or make it standing without `until`). Who may grant what is common/policy.ts `canGrant`: nobody hands
 * out more than they hold, nor gives themselves a role.
 */
export async function assignRole(db: Db, actor: RequestActor, organizationId: string, memberId: string, assignment: { role: Role; scope: Scope; until?: string }, now: Date) {
  const { role, scope } = assignment;
  const until = assignment.until ?? null;
  const target = await authorize(db, actor, 'role.assign', organizationId, MISSING);
  const member = await memberOf(db, organizationId, memberId);
  if (!assignableRoles(member.organization_role).includes(role)) {
    throw badRequest(`${role} can be assigned only to members of the operator organization.`, 'role');
  }
  checkUntil(assignment.until, now);
  refuseUngrantable(actor, { action: 'role.assign', role, scope, member_id: memberId, member_organization_role: member.organization_role }, target, member.organization_name);
  await db.transaction().execute(async (tx) => {
    await lockMember(tx, memberId);
    const held = (await repo.findAssignments(tx, memberId, role)).find((a) => a.organization_id === organizationId);
    // One that has ended but is not removed yet (the time scan's work) is granted anew.
    const existing = held && (!held.date_until || Date.parse(held.date_until) > now.getTime()) ? held : undefined;
    if (existing?.scope === scope && existing.date_until === until) {
      throw conflict(`${member.member_email} already has the role ${role} (${scope})${ending(until)}.`);
    }
    // A standing administrator made time-boxed could leave the organization run by nobody once it ends.
    if (existing && !existing.date_until && until) await keepAnAdministrator(tx, { member_id: memberId, organization_id: organizationId, role });
    if (held && !existing) await repo.deleteAssignment(tx, memberId, organizationId, role);
    if (existing) await repo.updateAssignment(tx, memberId, organizationId, role, { scope, date_until: until });
    else {
      await repo.insertAssignment(tx, {
        member_id: memberId, organization_id: organizationId, role, scope, date_until: until, date_assigned: now.toISOString(), assigned_by: actor.email,
      });
    }
    const message = !existing
      ? `Assigned ${role} (${scope})${ending(until)} to ${member.member_email}.`
      : existing.scope !== scope
        ? `Changed the scope of ${role} of ${member.member_email} from ${existing.scope} to ${scope}${ending(until)}.`
        : until
          ? `Changed the end of ${role} of ${member.member_email} to ${until}.`
          : `Made ${role} of ${member.member_email} standing (it was to end ${existing.date_until}).`;
    await audit(tx, {
      reason: 'ROLE_ASSIGNED', message, organization_id: organizationId, member_email: actor.email, now, subject: memberSubject(member, { role, scope, until }),
    });
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
