/**
 * Who may do what: the role-scope rule of DECISIONS.md and the table of SPEC.md §6.
 * Pure functions over plain data, imported by the server (to enforce) and by the web app
 * (to show or hide controls). Nothing else in the code base decides permissions.
 */
import type { OrganizationRole, Role, Scope } from './enums';

/** One role assignment of the actor, with the role of the organization it belongs to. */
export interface Assignment {
  organization_id: string;
  organization_role: OrganizationRole;
  role: Role;
  scope: Scope;
}

export interface Actor {
  member_id: string;
  organization_id: string;
  organization_role: OrganizationRole;
  roles: Assignment[];
}

/** The organization an action targets, with the chain of its parents (nearest first). */
export interface TargetOrganization {
  organization_id: string;
  ancestor_ids: readonly string[];
}

/** Roles listed per action in SPEC.md §6. `read` is any applying role (DECISIONS.md). */
export const ACTIONS = {
  read: ['SUPERVISOR', 'ADMINISTRATOR', 'APPROVER', 'ISSUER', 'MEMBER', 'DEVOPS'],
  'certificate.upload': ['SUPERVISOR', 'ISSUER', 'APPROVER'],
  'certificate.approve': ['SUPERVISOR', 'APPROVER'],
  'certificate.revoke': ['SUPERVISOR', 'APPROVER'],
  'certificate.remove': ['SUPERVISOR', 'APPROVER'],
  'certificate.editDescription': ['SUPERVISOR', 'APPROVER'],
  'certificate.acknowledgeExpiry': ['SUPERVISOR', 'ISSUER', 'APPROVER'],
  'license.request': ['SUPERVISOR', 'ISSUER', 'APPROVER'],
  'license.approve': ['SUPERVISOR', 'APPROVER'],
  'license.reject': ['SUPERVISOR', 'APPROVER'],
  'license.renew': ['SUPERVISOR', 'ISSUER'],
  'license.acknowledgeExpiry': ['SUPERVISOR', 'ISSUER', 'APPROVER'],
  'member.ban': ['ADMINISTRATOR', 'SUPERVISOR'],
  'member.unban': ['ADMINISTRATOR', 'SUPERVISOR'],
  'member.remove': ['ADMINISTRATOR', 'SUPERVISOR'],
  'member.save': ['ADMINISTRATOR', 'SUPERVISOR'],
  'role.assign': ['SUPERVISOR', 'ADMINISTRATOR'],
  'role.unassign': ['SUPERVISOR', 'ADMINISTRATOR'],
  'organization.create': ['ADMINISTRATOR', 'SUPERVISOR'],
  'organization.ban': ['SUPERVISOR', 'ADMINISTRATOR'],
  'organization.unban': ['SUPERVISOR', 'ADMINISTRATOR'],
  'organization.save': ['SUPERVISOR', 'ADMINISTRATOR'],
  'resource.create': ['SUPERVISOR', 'DEVOPS'],
  'resource.toggleOrganization': ['SUPERVISOR', 'DEVOPS'],
  'resource.grant': ['SUPERVISOR', 'ADMINISTRATOR'],
  /** Provide the master secret (SPEC.md §2 admin "secret"; DECISIONS.md "Master secret"). */
  'admin.secret': ['DEVOPS'],
  /** Make an API token for the download gateway (SPEC.md §2 admin "token"). */
  'admin.token': ['SUPERVISOR', 'DEVOPS'],
  /** Whether the master secret is provided: for the staff who see the token and secret screens. */
  'admin.state': ['SUPERVISOR', 'DEVOPS'],
} as const satisfies Record<string, readonly Role[]>;

export type Action = keyof typeof ACTIONS;

/**
 * Actions that only staff of the operator organization may take, whatever the target:
 * resources are global, so their target is the operator organization itself.
 */
const OPERATOR_ONLY: ReadonlySet<Action> = new Set(['resource.create', 'resource.grant', 'admin.secret', 'admin.token', 'admin.state']);

/** Actions whose SPEC.md §6 rule excludes the MANAGED scope. */
const NOT_MANAGED: ReadonlySet<Action> = new Set(['resource.grant']);

/** Does this assignment apply to the target organization? (DECISIONS.md "role scopes") */
export function applies(assignment: Assignment, target: TargetOrganization): boolean {
  const { scope } = assignment;
  if (target.organization_id === assignment.organization_id) {
    return scope === 'ORGANIZATION' || scope === 'COOPERATION';
  }
  const manages =
    assignment.organization_role === 'OPERATOR' || target.ancestor_ids.includes(assignment.organization_id);
  return manages && (scope === 'MANAGED' || scope === 'COOPERATION');
}

export function can(actor: Actor | null | undefined, action: Action, target: TargetOrganization): boolean {
  if (!actor) return false;
  const allowed: readonly Role[] = ACTIONS[action];
  return actor.roles.some(
    (a) =>
      allowed.includes(a.role) &&
      (!OPERATOR_ONLY.has(action) || a.organization_role === 'OPERATOR') &&
      (!NOT_MANAGED.has(action) || a.scope !== 'MANAGED') &&
      applies(a, target),
  );
}

/** Roles the actor holds anywhere, for the screens gated by role alone (SPEC.md §2). */
function holdsAny(actor: Actor | null | undefined, roles: readonly Role[], operatorOnly = false): boolean {
  return !!actor?.roles.some((a) => roles.includes(a.role) && (!operatorOnly || a.organization_role === 'OPERATOR'));
}

/** Gates of the header and the admin sidebar (SPEC.md §2 "Layouts and navigation"). */
export const SCREENS = {
  admin: (actor?: Actor | null) => holdsAny(actor, ['SUPERVISOR', 'ADMINISTRATOR', 'DEVOPS']),
  pendingTasks: (actor?: Actor | null) => holdsAny(actor, ['SUPERVISOR', 'ADMINISTRATOR']),
  organizations: (actor?: Actor | null) => holdsAny(actor, ['SUPERVISOR', 'ADMINISTRATOR']),
  licenses: (actor?: Actor | null) => holdsAny(actor, ['SUPERVISOR', 'APPROVER', 'DEVOPS']),
  certificates: (actor?: Actor | null) => holdsAny(actor, ['SUPERVISOR', 'APPROVER', 'DEVOPS']),
  users: (actor?: Actor | null) => holdsAny(actor, ['SUPERVISOR', 'ADMINISTRATOR']),
  resources: (actor?: Actor | null) => actor?.organization_role === 'OPERATOR' && (actor.roles.length > 0),
  token: (actor?: Actor | null) => holdsAny(actor, ['SUPERVISOR', 'DEVOPS'], true),
  secret: (actor?: Actor | null) => holdsAny(actor, ['DEVOPS'], true),
  piston: (actor?: Actor | null) => holdsAny(actor, ['DEVOPS'], true),
} as const;

export type Screen = keyof typeof SCREENS;

/**
 * Which roles a holder of a role may hand out (docs/decisions.md "Who may grant which role").
 * Nobody grants more than they hold: a SUPERVISOR grants any role; an ADMINISTRATOR runs members
 * and grants the roles of running an organization (ADMINISTRATOR, ISSUER, MEMBER), never the
 * approving, supervising or DevOps powers it does not have itself.
 */
export const GRANTABLE: Readonly<Partial<Record<Role, readonly Role[]>>> = {
  SUPERVISOR: ['SUPERVISOR', 'ADMINISTRATOR', 'APPROVER', 'ISSUER', 'MEMBER', 'DEVOPS'],
  ADMINISTRATOR: ['ADMINISTRATOR', 'ISSUER', 'MEMBER'],
};

/** The roles that holders of `held` (roles applying to an organization) may grant there. */
export function grantableBy(held: readonly Role[]): Role[] {
  return [...new Set(held.filter((r) => (ACTIONS['role.assign'] as readonly Role[]).includes(r)).flatMap((r) => GRANTABLE[r] ?? []))];
}

/**
 * The organizations below `target`, as one target: an assignment applies to it when it reaches
 * the target's descendants (MANAGED or COOPERATION from the target or above, or any operator one).
 */
export function belowOf(target: TargetOrganization): TargetOrganization {
  return { organization_id: `below:${target.organization_id}`, ancestor_ids: [target.organization_id, ...target.ancestor_ids] };
}

/**
 * May the actor give (or take away) `role` with `scope` to a member of `target`? Besides
 * `role.assign`/`role.unassign` there, the actor must hold an assignment that applies to the target
 * (and, for a scope that reaches below a partner or the operator, to the organizations below it)
 * whose role may grant `role`. Nobody gives themselves a role: that is how an administrator would
 * make itself a supervisor. Giving one up is allowed (the last administrator is kept by the service).
 */
export function canGrant(
  actor: Actor | null | undefined,
  change: { action: 'role.assign' | 'role.unassign'; role: Role; scope: Scope; member_id: string; member_organization_role: OrganizationRole },
  target: TargetOrganization,
): boolean {
  if (!actor || !can(actor, change.action, target)) return false;
  if (change.action === 'role.assign' && actor.member_id === change.member_id) return false;
  const reachesBelow = change.scope !== 'ORGANIZATION' && change.member_organization_role !== 'CUSTOMER';
  const allowed: readonly Role[] = ACTIONS[change.action];
  return [target, ...(reachesBelow ? [belowOf(target)] : [])].every((t) =>
    actor.roles.some((a) => allowed.includes(a.role) && applies(a, t) && (GRANTABLE[a.role] ?? []).includes(change.role)),
  );
}

/**
 * Roles the role selector offers for a member (SPEC.md §5): Approver and Supervisor only for
 * members of the operator organization, Devops only there at all.
 */
export function assignableRoles(memberOrganizationRole: OrganizationRole): Role[] {
  const operator = memberOrganizationRole === 'OPERATOR';
  return ['ADMINISTRATOR', 'ISSUER', 'MEMBER', ...(operator ? (['APPROVER', 'SUPERVISOR', 'DEVOPS'] as Role[]) : [])];
}
