/**
 * Who may do what: the role-scope rule of DECISIONS.md and the table of SPEC.md §6, the operator's
 * global actions, and the rules beyond roles (nobody bans themselves, nor the operator).
 * Pure functions over plain data, imported by the server (to enforce, through server/access/) and
 * by the web app (to show or hide controls). Nothing else in the code base decides permissions.
 */
import type { OrganizationRole, Role, Scope } from './enums';

/** One role assignment of the actor, with the role of the organization it belongs to. */
export interface Assignment {
  organization_id: string;
  organization_role: OrganizationRole;
  role: Role;
  scope: Scope;
  /**
   * Set when the assignment is a vendor support access (issue 33 item 2): the request's number, until its end. Such an
   * assignment acts like the granted role in that one organization, but never consents to support access itself.
   */
  support_request?: number;
  /** The support access was a break glass, taken without the customer's consent. */
  break_glass?: boolean;
}

export interface Actor {
  member_id: string;
  organization_id: string;
  organization_role: OrganizationRole;
  roles: Assignment[];
  /** Set when an organization's API key acts (issue 32): its roles are `roles`; read-only changes nothing. */
  api_key?: { read_only: boolean };
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
  /** Invite people by email, see, resend and revoke the invitations (issue 34): those who assign roles. */
  'member.invite': ['SUPERVISOR', 'ADMINISTRATOR'],
  'organization.create': ['ADMINISTRATOR', 'SUPERVISOR'],
  'organization.ban': ['SUPERVISOR', 'ADMINISTRATOR'],
  'organization.unban': ['SUPERVISOR', 'ADMINISTRATOR'],
  'organization.save': ['SUPERVISOR', 'ADMINISTRATOR'],
  'resource.create': ['SUPERVISOR', 'DEVOPS'],
  'resource.update': ['SUPERVISOR', 'DEVOPS'],
  'resource.delete': ['SUPERVISOR', 'DEVOPS'],
  'resource.toggleOrganization': ['SUPERVISOR', 'DEVOPS'],
  'resource.grant': ['SUPERVISOR', 'ADMINISTRATOR'],
  /** Change an organization's notification rules and webhooks (issue 13): its administrators, and staff who manage it. */
  'notifications.manage': ['SUPERVISOR', 'ADMINISTRATOR'],
  /**
   * Read the access review (issue 33): who holds which role, since when, until when, granted by whom. Those who
   * grant and take roles there (docs/decisions.md "Access review"); it shows every member's roles, which `read` does not.
   */
  'access.review': ['SUPERVISOR', 'ADMINISTRATOR'],
  /** Provide the master secret (SPEC.md §2 admin "secret"; DECISIONS.md "Master secret"). */
  'admin.secret': ['DEVOPS'],
  /** List, create and revoke an organization's API keys (issue 32): its administrators, and staff who manage it. */
  'apiKey.manage': ['ADMINISTRATOR', 'SUPERVISOR'],
  /** Make an API token for the download gateway (SPEC.md §2 admin "token"). */
  'admin.token': ['SUPERVISOR', 'DEVOPS'],
  /** See the gateway tokens made, and revoke one (issue 34): the staff who make them. */
  'token.list': ['SUPERVISOR', 'DEVOPS'],
  'token.revoke': ['SUPERVISOR', 'DEVOPS'],
  /** Whether the master secret is provided: for the staff who see the token and secret screens. */
  'admin.state': ['SUPERVISOR', 'DEVOPS'],
} as const satisfies Record<string, readonly Role[]>;

export type Action = keyof typeof ACTIONS;

/**
 * Actions that only staff of the operator organization may take, whatever the target:
 * resources are global, so their target is the operator organization itself.
 */
const OPERATOR_ONLY: ReadonlySet<Action> = new Set([
  'resource.create', 'resource.update', 'resource.delete', 'resource.grant', 'admin.secret', 'admin.token', 'admin.state',
  'token.list', 'token.revoke',
]);

/** Actions whose SPEC.md §6 rule excludes the MANAGED scope. */
const NOT_MANAGED: ReadonlySet<Action> = new Set(['resource.grant']);

/**
 * Actions a vendor support access never takes, whatever role it grants: a key made under it would be the support
 * person's own credential in the customer's organization, outside the portal, checked against roles the access lent.
 */
const NOT_THROUGH_SUPPORT: ReadonlySet<Action> = new Set(['apiKey.manage']);

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

/**
 * What an API key may never do whatever its roles: a read-only key changes nothing, and no key manages keys
 * (a leaked key could otherwise make itself a successor that outlives its revocation).
 */
function keyRefuses(actor: Actor, action: Action): boolean {
  if (!actor.api_key) return false;
  return action === 'apiKey.manage' || (actor.api_key.read_only && !READS.has(action));
}

/** The actions that change nothing: all a read-only key may do (an auditor's pipeline reads the access review too). */
const READS: ReadonlySet<Action> = new Set(['read', 'access.review']);

export function can(actor: Actor | null | undefined, action: Action, target: TargetOrganization): boolean {
  if (!actor || keyRefuses(actor, action)) return false;
  return actor.roles.some((a) => allows(a, action) && applies(a, target));
}

/** Does this assignment's role allow the action, wherever it applies? */
function allows(a: Assignment, action: Action): boolean {
  return (ACTIONS[action] as readonly Role[]).includes(a.role) &&
    (!OPERATOR_ONLY.has(action) || a.organization_role === 'OPERATOR') &&
    (!NOT_MANAGED.has(action) || a.scope !== 'MANAGED') &&
    (!NOT_THROUGH_SUPPORT.has(action) || a.support_request === undefined);
}

/** Roles the actor holds anywhere, for the screens gated by role alone (SPEC.md §2). */
function holdsAny(actor: Actor | null | undefined, roles: readonly Role[], operatorOnly = false): boolean {
  return !!actor?.roles.some((a) => roles.includes(a.role) && (!operatorOnly || a.organization_role === 'OPERATOR'));
}

/** Staff of the operator organization: people holding a role there. The one definition. */
export function isOperatorStaff(actor: Actor | null | undefined): boolean {
  return !!actor?.roles.some((a) => a.organization_role === 'OPERATOR');
}

/**
 * The operator organization as the actor's own roles name it: the target of the operator-only
 * actions (resources are global, the master secret and tokens are the operator's). Null for
 * people outside the operator. The operator has no parent, so the target has no ancestors.
 */
export function operatorTarget(actor: Actor | null | undefined): TargetOrganization | null {
  const id = actor?.roles.find((a) => a.organization_role === 'OPERATOR')?.organization_id;
  return id ? { organization_id: id, ancestor_ids: [] } : null;
}

/** May the actor take this operator-only action (on the operator organization)? */
export function canOnOperator(actor: Actor | null | undefined, action: Action): boolean {
  const target = operatorTarget(actor);
  return !!target && can(actor, action, target);
}

/**
 * Decisions about the operator's global things that no organization carries, by the caller's roles
 * alone: reading the resource catalogue (any operator staff) and pulling the gateway exports.
 */
const GLOBAL_ACTIONS = {
  'resource.read': (actor: Actor | null | undefined) => isOperatorStaff(actor),
  'piston.export': (actor: Actor | null | undefined) => holdsAny(actor, ['DEVOPS'], true),
  /**
   * Manage resources anywhere (create, save, delete, grant, or toggle an organization's access): only this
   * shows a resource's server location and every organization it is granted to. Others are shown no location
   * and, of its grants, only the organization they look at (issue 30: a member saw the other customers of a
   * restricted resource and its server path).
   */
  'resource.manage': (actor: Actor | null | undefined) =>
    holdsAny(actor, ACTIONS['resource.toggleOrganization'], true) || canOnOperator(actor, 'resource.grant'),
  /** The overview across the organizations one reads (issue 12: "operator staff get the same"). */
  'overview.admin': (actor: Actor | null | undefined) => isOperatorStaff(actor),
  /**
   * Settle requests waiting for approval (issue 34): the operator's APPROVER and SUPERVISOR. They are told of
   * approval work, land on Pending Tasks when some waits, and reach it from the header (docs/decisions.md).
   */
  'approval.review': (actor: Actor | null | undefined) =>
    holdsAny(actor, [...new Set([...ACTIONS['certificate.approve'], ...ACTIONS['license.approve']])], true),
  /**
   * Choose how one's own approval work is mailed, per request or as a daily digest (issue 34): a person who settles
   * approvals, never a key (a key acts as its creator, whose own choice this is).
   */
  'approval.mail': (actor: Actor | null | undefined) => !actor?.api_key && canGlobally(actor, 'approval.review'),
  /** The API keys of every organization (issue 32, the admin area's list): the vendor's supervisors, never through a key. */
  'apiKey.review': (actor: Actor | null | undefined) => !actor?.api_key && holdsAny(actor, ['SUPERVISOR'], true),
} as const;

export type GlobalAction = keyof typeof GLOBAL_ACTIONS;

export function canGlobally(actor: Actor | null | undefined, action: GlobalAction): boolean {
  return GLOBAL_ACTIONS[action](actor);
}

export const GLOBAL_ACTION_NAMES = Object.keys(GLOBAL_ACTIONS) as [GlobalAction, ...GlobalAction[]];

/** The global actions the actor may take: the profile's `abilities`, which the screens read. */
export function globalAbilities(actor: Actor | null | undefined): GlobalAction[] {
  return GLOBAL_ACTION_NAMES.filter((action) => canGlobally(actor, action));
}

/** Gates of the header and the admin sidebar (SPEC.md §2 "Layouts and navigation"). */
export const SCREENS = {
  admin: (actor?: Actor | null) => holdsAny(actor, ['SUPERVISOR', 'ADMINISTRATOR', 'DEVOPS']),
  pendingTasks: (actor?: Actor | null) => holdsAny(actor, ['SUPERVISOR', 'ADMINISTRATOR']),
  organizations: (actor?: Actor | null) => holdsAny(actor, ['SUPERVISOR', 'ADMINISTRATOR']),
  licenses: (actor?: Actor | null) => holdsAny(actor, ['SUPERVISOR', 'APPROVER', 'DEVOPS']),
  certificates: (actor?: Actor | null) => holdsAny(actor, ['SUPERVISOR', 'APPROVER', 'DEVOPS']),
  users: (actor?: Actor | null) => holdsAny(actor, ['SUPERVISOR', 'ADMINISTRATOR']),
  resources: (actor?: Actor | null) => canGlobally(actor, 'resource.read'),
  token: (actor?: Actor | null) => holdsAny(actor, ACTIONS['admin.token'], true),
  secret: (actor?: Actor | null) => holdsAny(actor, ACTIONS['admin.secret'], true),
  piston: (actor?: Actor | null) => canGlobally(actor, 'piston.export'),
  overview: (actor?: Actor | null) => canGlobally(actor, 'overview.admin'),
  apiKeys: (actor?: Actor | null) => canGlobally(actor, 'apiKey.review'),
  accessReview: (actor?: Actor | null) => holdsAny(actor, ACTIONS['access.review']),
  /** The support person's own requests and the form to ask (issue 33 item 2): defined with canSupport below. */
  supportAccess: (actor?: Actor | null) => supportRolesOf(actor).length > 0,
} as const;

/**
 * The actor with only the assignments whose role allows `action` (one neither operator-only nor excluding MANAGED):
 * the organizations this actor reaches by scope (server/access/tree.ts) are exactly those where `can(actor, action)`.
 * For lists across organizations of an action beyond `read` (the access review of the admin area).
 */
export function actorFor(actor: Actor, action: Exclude<Action, 'resource.grant'>): Actor {
  if (keyRefuses(actor, action)) return { ...actor, roles: [] };
  return { ...actor, roles: actor.roles.filter((a) => allows(a, action)) };
}

/**
 * Rules beyond roles that refuse an action on a member whatever the caller's roles (the server
 * answers 409 with the text; the screens hide the control): nobody bans or removes themselves,
 * they would lock themselves out mid-task. Null when nothing refuses it.
 */
export function memberRefusal(actor: Actor | null | undefined, action: Action, member: { member_id: string }): string | null {
  if (actor?.member_id !== member.member_id) return null;
  if (action === 'member.ban') return 'You cannot ban yourself.';
  if (action === 'member.remove') return 'You cannot remove yourself.';
  // That is how an administrator would make itself a supervisor; giving a role up is allowed.
  if (action === 'role.assign') return 'You cannot give yourself a role.';
  return null;
}

/** The same for organizations: the operator is never banned, nor anyone's own organization by them. */
export function organizationRefusal(
  actor: Actor | null | undefined, action: Action, organization: { organization_id: string; organization_role: OrganizationRole },
): string | null {
  if (action !== 'organization.ban') return null;
  if (organization.organization_role === 'OPERATOR') return 'The operator organization cannot be banned.';
  if (organization.organization_id === actor?.organization_id) return 'You cannot ban your own organization.';
  return null;
}

export type Screen = keyof typeof SCREENS;

/**
 * Which roles a holder of a role may hand out (docs/decisions.md "Who may grant which role").
 * Nobody grants more than they hold: a SUPERVISOR grants any role; an ADMINISTRATOR runs members
 * and grants the roles of running an organization (ADMINISTRATOR, ISSUER, MEMBER), never the
 * approving, supervising or DevOps powers it does not have itself.
 */
const GRANTABLE: Readonly<Partial<Record<Role, readonly Role[]>>> = {
  SUPERVISOR: ['SUPERVISOR', 'ADMINISTRATOR', 'APPROVER', 'ISSUER', 'MEMBER', 'DEVOPS'],
  ADMINISTRATOR: ['ADMINISTRATOR', 'ISSUER', 'MEMBER'],
};

/** The roles that holders of `held` (roles applying to an organization) may grant there. */
export function grantableBy(held: readonly Role[]): Role[] {
  return [...new Set(held.filter((r) => (ACTIONS['role.assign'] as readonly Role[]).includes(r)).flatMap((r) => GRANTABLE[r] ?? []))];
}

/**
 * Any organization directly below `parent`, one not made yet included (it has no id): the target
 * of creating an organization there, and of a role whose scope reaches below `parent`. An
 * assignment applies to it when it reaches the parent's descendants (MANAGED or COOPERATION from
 * the parent or above, or any operator one).
 */
export function childOf(parent: TargetOrganization): TargetOrganization {
  return { organization_id: '', ancestor_ids: [parent.organization_id, ...parent.ancestor_ids] };
}

/**
 * May the actor give (or take away) `role` with `scope` to a member of `target`? Besides
 * `role.assign`/`role.unassign` there, the actor must hold an assignment that applies to the target
 * (and, for a scope that reaches below a partner or the operator, to the organizations below it)
 * whose role may grant `role`. Nobody gives themselves a role (memberRefusal). Giving one up is
 * allowed (the last administrator is kept by the service).
 */
export function canGrant(
  actor: Actor | null | undefined,
  change: { action: 'role.assign' | 'role.unassign'; role: Role; scope: Scope; member_id: string; member_organization_role: OrganizationRole },
  target: TargetOrganization,
): boolean {
  if (!actor || !can(actor, change.action, target)) return false;
  if (memberRefusal(actor, change.action, change)) return false;
  const reachesBelow = change.scope !== 'ORGANIZATION' && change.member_organization_role !== 'CUSTOMER';
  const allowed: readonly Role[] = ACTIONS[change.action];
  return [target, ...(reachesBelow ? [childOf(target)] : [])].every((t) =>
    actor.roles.some((a) => allowed.includes(a.role) && applies(a, t) && (GRANTABLE[a.role] ?? []).includes(change.role)),
  );
}

/**
 * May the actor invite a person into `target` (of role `organizationRole`) with `role` and `scope`, or resend or
 * revoke such an invitation? The rule of assigning that role and scope to a member there (`canGrant`): an
 * invitation is an assignment made when the person first signs in, so it can hand out no more than assigning.
 */
export function canInvite(
  actor: Actor | null | undefined, invitation: { role: Role; scope: Scope }, organizationRole: OrganizationRole, target: TargetOrganization,
): boolean {
  if (!can(actor, 'member.invite', target)) return false;
  // Nobody is the invited person yet, so no rule about oneself applies.
  return canGrant(actor, { action: 'role.assign', ...invitation, member_id: '', member_organization_role: organizationRole }, target);
}

/**
 * Roles the role selector offers for a member (SPEC.md §5): Approver and Supervisor only for
 * members of the operator organization, Devops only there at all.
 */
export function assignableRoles(memberOrganizationRole: OrganizationRole): Role[] {
  const operator = memberOrganizationRole === 'OPERATOR';
  return ['ADMINISTRATOR', 'ISSUER', 'MEMBER', ...(operator ? (['APPROVER', 'SUPERVISOR', 'DEVOPS'] as Role[]) : [])];
}

/**
 * The actions each kind of object answers with in its `abilities` (Outline's pattern): what this
 * caller may do to it by the rules above (roles, scope, rules beyond roles), computed on the server
 * with `can`. The object's state (already approved, expired …) is common/status.ts's, not listed here.
 */
export const OBJECT_ACTIONS = {
  certificate: ['certificate.approve', 'certificate.revoke', 'certificate.remove', 'certificate.editDescription', 'certificate.acknowledgeExpiry'],
  license: ['license.approve', 'license.reject', 'license.renew', 'license.acknowledgeExpiry'],
  member: ['member.save', 'member.ban', 'member.unban', 'member.remove', 'role.assign', 'role.unassign'],
  /** Everything that targets an organization: its own changes and what may be made in it. */
  organization: (Object.keys(ACTIONS) as Action[]).filter((a) => !OPERATOR_ONLY.has(a)),
  resource: ['resource.update', 'resource.delete', 'resource.grant'],
  /** `member.invite` when the caller may resend and revoke it (canInvite for its role and scope). */
  invitation: ['member.invite'],
} as const satisfies Record<string, readonly Action[]>;

/** The `abilities` of an object of an organization: the listed actions the actor may take on it. */
export function abilitiesOn(
  actor: Actor | null | undefined, actions: readonly Action[], target: TargetOrganization, refusal?: (action: Action) => string | null,
): Action[] {
  return actions.filter((action) => can(actor, action, target) && !refusal?.(action));
}

/** The `abilities` of a resource of the operator's global catalogue. */
export function resourceAbilities(actor: Actor | null | undefined): Action[] {
  return OBJECT_ACTIONS.resource.filter((action) => canOnOperator(actor, action));
}


/**
 * Vendor support access (issue 33 item 2, docs/decisions.md "Support access"). Asked for by the operator's SUPERVISOR
 * and DEVOPS: the supervisors answer for every customer, DevOps are the vendor's engineers who run the portal and
 * its gateways and are the ones an incident needs. Approvers settle requests and administrators run the operator's
 * own members; neither needs to act inside a customer. Each asks for no more than its role warrants: DevOps up to
 * ISSUER (read, upload, request), a supervisor up to ADMINISTRATOR (members and roles). The customer's consent is
 * given by an ADMINISTRATOR whose role is the customer's own or its partner's, never the vendor's (the vendor cannot
 * consent for its customer), never through a support access or an API key.
 */
const SUPPORT_GRANTABLE: Readonly<Partial<Record<Role, readonly Role[]>>> = {
  SUPERVISOR: ['MEMBER', 'ISSUER', 'ADMINISTRATOR'],
  DEVOPS: ['MEMBER', 'ISSUER'],
};
/** The longest support access, and the longest break glass, in hours. */
export const SUPPORT_MAX_HOURS = 72;
export const BREAK_GLASS_MAX_HOURS = 4;
/** How long a request waits for a decision: an incident needs an answer within a day, not an approval days later. */
export const SUPPORT_REQUEST_WAITS_HOURS = 24;
/** The first instant at which a request made at `dateRequested` no longer waits: it lapses unanswered. */
export const supportRequestLapsesAt = (dateRequested: string) =>
  new Date(Date.parse(dateRequested) + SUPPORT_REQUEST_WAITS_HOURS * 3_600_000).toISOString();

const operatorStanding = (actor: Actor | null | undefined) =>
  actor && !actor.api_key ? actor.roles.filter((a) => a.organization_role === 'OPERATOR' && !a.support_request) : [];

/** The roles the actor may ask for in a support access (none: it may not ask at all). */
export function supportRolesOf(actor: Actor | null | undefined): Role[] {
  const roles = new Set(operatorStanding(actor).flatMap((a) => SUPPORT_GRANTABLE[a.role] ?? []));
  return (['MEMBER', 'ISSUER', 'ADMINISTRATOR'] as Role[]).filter((r) => roles.has(r));
}

export type SupportAction = 'request' | 'breakGlass' | 'decide' | 'end' | 'list';

/**
 * May the actor take this support-access action on the organization `target` (`requester`: the request's member, for
 * ending one's own)? The operator organization itself (no parent) is never a target: its staff have their roles.
 */
export function canSupport(actor: Actor | null | undefined, action: SupportAction, target: TargetOrganization, requester?: string): boolean {
  if (!actor || target.ancestor_ids.length === 0) return false;
  const consents = !actor.api_key && actor.roles.some((a) => a.role === 'ADMINISTRATOR' && a.organization_role !== 'OPERATOR' && !a.support_request && applies(a, target));
  switch (action) {
    case 'request': return supportRolesOf(actor).length > 0;
    case 'breakGlass': return operatorStanding(actor).some((a) => a.role === 'SUPERVISOR');
    case 'decide': return consents;
    case 'end': return consents || (!actor.api_key && requester !== undefined && requester === actor.member_id);
    case 'list': return consents || supportRolesOf(actor).length > 0;
  }
}

/** The abilities the support-access page reads for an organization. */
export function supportAbilities(actor: Actor | null | undefined, target: TargetOrganization): Array<Exclude<SupportAction, 'end'>> {
  return (['request', 'breakGlass', 'decide', 'list'] as const).filter((a) => canSupport(actor, a, target));
}
