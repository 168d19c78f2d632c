import { describe, expect, it } from 'vitest';
import {
  ACTIONS, actorFor, applies, assignableRoles, can, canGlobally, canGrant, canInvite, canOnOperator, childOf, grantableBy, isOperatorStaff, memberRefusal,
  operatorTarget, organizationRefusal, SCREENS, type Action, type Actor, type Assignment,
} from './policy';
import { ROLES, SCOPES, type OrganizationRole, type Role, type Scope } from './enums';

// SPEC.md §6, written out again here so a slip in policy.ts cannot hide behind itself.
const TABLE: Record<Action, Role[]> = {
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
  'notifications.manage': ['SUPERVISOR', 'ADMINISTRATOR'],
  'apiKey.manage': ['SUPERVISOR', 'ADMINISTRATOR'],
  'access.review': ['SUPERVISOR', 'ADMINISTRATOR'],
  'admin.secret': ['DEVOPS'],
  'admin.token': ['SUPERVISOR', 'DEVOPS'],
  'admin.state': ['SUPERVISOR', 'DEVOPS'],
  'token.list': ['SUPERVISOR', 'DEVOPS'],
  'token.revoke': ['SUPERVISOR', 'DEVOPS'],
};

// A partner P manages customer C; U is unrelated; O is the operator.
const O = { organization_id: 'O', ancestor_ids: [] };
const P = { organization_id: 'P', ancestor_ids: ['O'] };
const C = { organization_id: 'C', ancestor_ids: ['P', 'O'] };
const U = { organization_id: 'U', ancestor_ids: ['O'] };

function actorWith(organizationId: string, organizationRole: OrganizationRole, role: Role, scope: Scope): Actor {
  const assignment: Assignment = { organization_id: organizationId, organization_role: organizationRole, role, scope };
  return { member_id: 'm', organization_id: organizationId, organization_role: organizationRole, roles: [assignment] };
}

const OWN_SCOPES: Scope[] = ['ORGANIZATION', 'COOPERATION'];
const MANAGED_SCOPES: Scope[] = ['MANAGED', 'COOPERATION'];
const OPERATOR_ONLY: Action[] = ['resource.create', 'resource.update', 'resource.delete', 'resource.grant', 'admin.secret', 'admin.token', 'admin.state', 'token.list', 'token.revoke'];

describe('policy: every action × role × scope × relation (partner actor)', () => {
  for (const action of Object.keys(TABLE) as Action[]) {
    for (const role of ROLES) {
      for (const scope of SCOPES) {
        const actor = actorWith('P', 'PARTNER', role, scope);
        const listed = TABLE[action].includes(role) && !OPERATOR_ONLY.includes(action);
        it(`${action} as ${role}/${scope}`, () => {
          expect(can(actor, action, P), 'own organization').toBe(listed && OWN_SCOPES.includes(scope));
          expect(can(actor, action, C), 'managed organization').toBe(listed && MANAGED_SCOPES.includes(scope));
          expect(can(actor, action, U), 'unrelated organization').toBe(false);
          expect(can(actor, action, O), 'its parent').toBe(false);
        });
      }
    }
  }
});

describe('policy: operator staff', () => {
  it('reach every organization with MANAGED or COOPERATION scope, only their own with ORGANIZATION', () => {
    for (const target of [P, C, U]) {
      expect(can(actorWith('O', 'OPERATOR', 'APPROVER', 'COOPERATION'), 'certificate.approve', target)).toBe(true);
      expect(can(actorWith('O', 'OPERATOR', 'APPROVER', 'MANAGED'), 'certificate.approve', target)).toBe(true);
      expect(can(actorWith('O', 'OPERATOR', 'APPROVER', 'ORGANIZATION'), 'certificate.approve', target)).toBe(false);
    }
    expect(can(actorWith('O', 'OPERATOR', 'APPROVER', 'MANAGED'), 'certificate.approve', O)).toBe(false);
  });

  it('create resources as SUPERVISOR or DEVOPS; grant them as SUPERVISOR or ADMINISTRATOR but not with MANAGED scope', () => {
    expect(can(actorWith('O', 'OPERATOR', 'DEVOPS', 'COOPERATION'), 'resource.create', O)).toBe(true);
    expect(can(actorWith('O', 'OPERATOR', 'ADMINISTRATOR', 'COOPERATION'), 'resource.create', O)).toBe(false);
    expect(can(actorWith('O', 'OPERATOR', 'ADMINISTRATOR', 'ORGANIZATION'), 'resource.grant', O)).toBe(true);
    expect(can(actorWith('O', 'OPERATOR', 'ADMINISTRATOR', 'MANAGED'), 'resource.grant', O)).toBe(false);
    expect(can(actorWith('P', 'PARTNER', 'SUPERVISOR', 'COOPERATION'), 'resource.grant', P)).toBe(false);
  });

  it('provide the master secret as DEVOPS only, and make tokens as SUPERVISOR or DEVOPS, of the operator', () => {
    for (const role of ROLES) {
      for (const scope of OWN_SCOPES) {
        const operator = actorWith('O', 'OPERATOR', role, scope);
        expect(can(operator, 'admin.secret', O), `${role}/${scope}`).toBe(role === 'DEVOPS');
        expect(can(operator, 'admin.token', O), `${role}/${scope}`).toBe(role === 'SUPERVISOR' || role === 'DEVOPS');
        expect(can(actorWith('P', 'PARTNER', role, scope), 'admin.secret', P)).toBe(false);
        expect(can(actorWith('P', 'PARTNER', role, scope), 'admin.token', P)).toBe(false);
      }
    }
  });
});

describe('policy: the operator\'s global actions and the rules beyond roles', () => {
  it('defines operator staff once: anyone holding a role in the operator organization', () => {
    for (const role of ROLES) {
      for (const scope of SCOPES) {
        expect(isOperatorStaff(actorWith('O', 'OPERATOR', role, scope))).toBe(true);
        expect(isOperatorStaff(actorWith('P', 'PARTNER', role, scope))).toBe(false);
        expect(canGlobally(actorWith('O', 'OPERATOR', role, scope), 'resource.read')).toBe(true);
        expect(canGlobally(actorWith('P', 'PARTNER', role, scope), 'resource.read')).toBe(false);
        expect(canGlobally(actorWith('O', 'OPERATOR', role, scope), 'piston.export')).toBe(role === 'DEVOPS');
        expect(canGlobally(actorWith('P', 'PARTNER', role, scope), 'piston.export')).toBe(false);
        // A resource's location and grants (issue 30): operator SUPERVISOR and DEVOPS at any scope, ADMINISTRATOR unless MANAGED.
        const manages = role === 'SUPERVISOR' || role === 'DEVOPS' || (role === 'ADMINISTRATOR' && scope !== 'MANAGED');
        expect(canGlobally(actorWith('O', 'OPERATOR', role, scope), 'resource.manage'), `${role} ${scope}`).toBe(manages);
        expect(canGlobally(actorWith('P', 'PARTNER', role, scope), 'resource.manage')).toBe(false);
        // The admin overview: operator staff, whatever their role (issue 12 item 6); a partner's supervisor is not.
        expect(canGlobally(actorWith('O', 'OPERATOR', role, scope), 'overview.admin')).toBe(true);
        expect(canGlobally(actorWith('P', 'PARTNER', role, scope), 'overview.admin')).toBe(false);
        expect(SCREENS.overview(actorWith('O', 'OPERATOR', role, scope))).toBe(true);
        expect(SCREENS.overview(actorWith('P', 'PARTNER', role, scope))).toBe(false);
        // Settling approvals, the way to Pending Tasks (issue 34): the operator's APPROVER and SUPERVISOR only.
        const approves = role === 'APPROVER' || role === 'SUPERVISOR';
        expect(canGlobally(actorWith('O', 'OPERATOR', role, scope), 'approval.review'), `${role} ${scope}`).toBe(approves);
        expect(canGlobally(actorWith('P', 'PARTNER', role, scope), 'approval.review')).toBe(false);
      }
    }
    expect(isOperatorStaff(null)).toBe(false);
    expect(operatorTarget(actorWith('O', 'OPERATOR', 'MEMBER', 'ORGANIZATION'))).toEqual(O);
    expect(operatorTarget(actorWith('P', 'PARTNER', 'SUPERVISOR', 'COOPERATION'))).toBeNull();
  });

  it('decides resource changes on the operator organization, by the action\'s own roles', () => {
    for (const action of ['resource.create', 'resource.update', 'resource.delete'] as const) {
      expect(canOnOperator(actorWith('O', 'OPERATOR', 'DEVOPS', 'ORGANIZATION'), action)).toBe(true);
      expect(canOnOperator(actorWith('O', 'OPERATOR', 'ADMINISTRATOR', 'ORGANIZATION'), action)).toBe(false);
      expect(canOnOperator(actorWith('P', 'PARTNER', 'SUPERVISOR', 'COOPERATION'), action)).toBe(false);
    }
  });

  it('refuses banning or removing oneself, whatever the roles, and nothing else about oneself', () => {
    const admin = actorWith('C', 'CUSTOMER', 'ADMINISTRATOR', 'ORGANIZATION');
    expect(memberRefusal(admin, 'member.ban', { member_id: 'm' })).toBe('You cannot ban yourself.');
    expect(memberRefusal(admin, 'member.remove', { member_id: 'm' })).toBe('You cannot remove yourself.');
    expect(memberRefusal(admin, 'member.save', { member_id: 'm' })).toBeNull();
    expect(memberRefusal(admin, 'member.ban', { member_id: 'other' })).toBeNull();
  });

  it('refuses banning the operator, and one\'s own organization', () => {
    const supervisor = actorWith('O', 'OPERATOR', 'SUPERVISOR', 'COOPERATION');
    expect(organizationRefusal(supervisor, 'organization.ban', { organization_id: 'O', organization_role: 'OPERATOR' })).toMatch(/operator/);
    const partner = actorWith('P', 'PARTNER', 'SUPERVISOR', 'COOPERATION');
    expect(organizationRefusal(partner, 'organization.ban', { organization_id: 'P', organization_role: 'PARTNER' })).toMatch(/your own/);
    expect(organizationRefusal(partner, 'organization.ban', { organization_id: 'C', organization_role: 'CUSTOMER' })).toBeNull();
    expect(organizationRefusal(partner, 'organization.unban', { organization_id: 'P', organization_role: 'PARTNER' })).toBeNull();
  });

  it('names a new organization below a parent as a target that the parent\'s managers reach', () => {
    expect(can(actorWith('P', 'PARTNER', 'ADMINISTRATOR', 'MANAGED'), 'organization.create', childOf(P))).toBe(true);
    expect(can(actorWith('P', 'PARTNER', 'ADMINISTRATOR', 'ORGANIZATION'), 'organization.create', childOf(P))).toBe(false);
    expect(can(actorWith('U', 'PARTNER', 'ADMINISTRATOR', 'COOPERATION'), 'organization.create', childOf(P))).toBe(false);
    expect(can(actorWith('O', 'OPERATOR', 'SUPERVISOR', 'MANAGED'), 'organization.create', childOf(U))).toBe(true);
  });
});

describe('policy: applies and nobody', () => {
  it('needs an actor', () => {
    expect(can(null, 'read', O)).toBe(false);
  });
  it('applies a customer role only to the customer itself', () => {
    const a: Assignment = { organization_id: 'C', organization_role: 'CUSTOMER', role: 'ISSUER', scope: 'COOPERATION' };
    expect(applies(a, C)).toBe(true);
    expect(applies(a, P)).toBe(false);
  });
  it('lists the same roles per action as SPEC.md §6', () => {
    for (const action of Object.keys(TABLE) as Action[]) expect([...ACTIONS[action]].sort()).toEqual([...TABLE[action]].sort());
  });
});

describe('screens (SPEC.md §2)', () => {
  it('shows Admin to SUPERVISOR, ADMINISTRATOR and DEVOPS only', () => {
    for (const role of ROLES) {
      expect(SCREENS.admin(actorWith('P', 'PARTNER', role, 'ORGANIZATION'))).toBe(['SUPERVISOR', 'ADMINISTRATOR', 'DEVOPS'].includes(role));
    }
  });
  it('keeps token, secret and piston screens to the operator organization', () => {
    expect(SCREENS.token(actorWith('O', 'OPERATOR', 'DEVOPS', 'COOPERATION'))).toBe(true);
    expect(SCREENS.token(actorWith('P', 'PARTNER', 'SUPERVISOR', 'COOPERATION'))).toBe(false);
    expect(SCREENS.secret(actorWith('O', 'OPERATOR', 'SUPERVISOR', 'COOPERATION'))).toBe(false);
    expect(SCREENS.piston(actorWith('O', 'OPERATOR', 'DEVOPS', 'ORGANIZATION'))).toBe(true);
    expect(SCREENS.resources(actorWith('P', 'PARTNER', 'SUPERVISOR', 'COOPERATION'))).toBe(false);
    expect(SCREENS.resources(actorWith('O', 'OPERATOR', 'MEMBER', 'ORGANIZATION'))).toBe(true);
  });
  it('offers Approver, Supervisor and Devops only to operator members', () => {
    expect(assignableRoles('CUSTOMER')).toEqual(['ADMINISTRATOR', 'ISSUER', 'MEMBER']);
    expect(assignableRoles('OPERATOR')).toEqual(expect.arrayContaining(['APPROVER', 'SUPERVISOR', 'DEVOPS']));
  });
});

describe('who may invite with which role (canInvite)', () => {
  it('is the rule of assigning that role and scope: what one may grant, one may invite with, and nothing more', () => {
    const people = ROLES.flatMap((role) => SCOPES.map((scope) => actorWith('P', 'PARTNER', role, scope)));
    for (const actor of people) {
      for (const target of [P, C, U]) {
        const organizationRole: OrganizationRole = target === P ? 'PARTNER' : 'CUSTOMER';
        for (const role of ROLES) {
          for (const scope of SCOPES) {
            const grant = canGrant(actor, { action: 'role.assign', role, scope, member_id: 'someone-else', member_organization_role: organizationRole }, target);
            expect(canInvite(actor, { role, scope }, organizationRole, target), `${actor.roles[0].role} ${actor.roles[0].scope} invites ${role} ${scope}`).toBe(grant);
          }
        }
      }
    }
    // Not the "nobody gives themselves a role" rule: nobody is the invited person yet.
    expect(canInvite(actorWith('P', 'PARTNER', 'ADMINISTRATOR', 'COOPERATION'), { role: 'ISSUER', scope: 'ORGANIZATION' }, 'PARTNER', P)).toBe(true);
    expect(canInvite(actorWith('P', 'PARTNER', 'ADMINISTRATOR', 'COOPERATION'), { role: 'APPROVER', scope: 'ORGANIZATION' }, 'PARTNER', P)).toBe(false);
    expect(canInvite(null, { role: 'MEMBER', scope: 'ORGANIZATION' }, 'PARTNER', P)).toBe(false);
  });
});

describe('who may grant which role (canGrant)', () => {
  const change = (role: Role, scope: Scope, member_organization_role: OrganizationRole = 'PARTNER') =>
    ({ action: 'role.assign', role, scope, member_id: 'someone-else', member_organization_role }) as const;

  it('lets a SUPERVISOR grant every role and an ADMINISTRATOR only ADMINISTRATOR, ISSUER and MEMBER', () => {
    for (const role of ROLES) {
      expect(canGrant(actorWith('P', 'PARTNER', 'SUPERVISOR', 'COOPERATION'), change(role, 'ORGANIZATION'), P), `SUPERVISOR grants ${role}`).toBe(true);
      expect(canGrant(actorWith('P', 'PARTNER', 'ADMINISTRATOR', 'COOPERATION'), change(role, 'ORGANIZATION'), P), `ADMINISTRATOR grants ${role}`).toBe(
        ['ADMINISTRATOR', 'ISSUER', 'MEMBER'].includes(role),
      );
    }
    expect(grantableBy(['ADMINISTRATOR', 'ISSUER'])).toEqual(['ADMINISTRATOR', 'ISSUER', 'MEMBER']);
    expect(grantableBy(['ISSUER', 'APPROVER', 'DEVOPS'])).toEqual([]);
  });

  it('refuses roles that cannot assign, and targets the grantor does not reach', () => {
    for (const role of ['APPROVER', 'ISSUER', 'MEMBER', 'DEVOPS'] as Role[]) {
      expect(canGrant(actorWith('P', 'PARTNER', role, 'COOPERATION'), change('MEMBER', 'ORGANIZATION'), P)).toBe(false);
    }
    expect(canGrant(actorWith('P', 'PARTNER', 'SUPERVISOR', 'COOPERATION'), change('MEMBER', 'ORGANIZATION'), U)).toBe(false);
    expect(canGrant(null, change('MEMBER', 'ORGANIZATION'), P)).toBe(false);
  });

  it('needs the grantor to reach below for a reaching scope, except on a customer, which has nothing below', () => {
    const ownOnly = actorWith('P', 'PARTNER', 'ADMINISTRATOR', 'ORGANIZATION');
    expect(canGrant(ownOnly, change('ISSUER', 'ORGANIZATION'), P)).toBe(true);
    expect(canGrant(ownOnly, change('ISSUER', 'COOPERATION'), P)).toBe(false);
    expect(canGrant(ownOnly, change('ISSUER', 'MANAGED'), P)).toBe(false);
    expect(canGrant(actorWith('P', 'PARTNER', 'ADMINISTRATOR', 'COOPERATION'), change('ISSUER', 'COOPERATION'), P)).toBe(true);
    const customerAdmin = actorWith('C', 'CUSTOMER', 'ADMINISTRATOR', 'ORGANIZATION');
    expect(canGrant(customerAdmin, change('ISSUER', 'COOPERATION', 'CUSTOMER'), C)).toBe(true);
  });

  it('lets nobody give themselves a role, but anyone allowed give one up', () => {
    const supervisor = actorWith('O', 'OPERATOR', 'SUPERVISOR', 'COOPERATION');
    expect(canGrant(supervisor, { ...change('DEVOPS', 'ORGANIZATION', 'OPERATOR'), member_id: 'm' }, O)).toBe(false);
    expect(canGrant(supervisor, { ...change('SUPERVISOR', 'COOPERATION', 'OPERATOR'), member_id: 'm', action: 'role.unassign' }, O)).toBe(true);
  });
});

describe('the access review across organizations (actorFor)', () => {
  it('reaches by scope exactly the organizations where the actor may review', () => {
    for (const [id, organizationRole] of [['O', 'OPERATOR'], ['P', 'PARTNER'], ['C', 'CUSTOMER']] as const) {
      for (const role of ROLES) {
        for (const scope of SCOPES) {
          const actor = actorWith(id, organizationRole, role, scope);
          for (const target of [O, P, C, U]) {
            expect(can(actorFor(actor, 'access.review'), 'read', target), `${role} ${scope} of ${id} on ${target.organization_id}`)
              .toBe(can(actor, 'access.review', target));
          }
        }
      }
    }
  });
});
