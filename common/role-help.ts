/**
 * One line per role and scope, shown under each choice wherever a role is given (the Invite form, the Roles
 * tab): issue 34, "nothing explains roles and scopes where they are chosen". Worded from SPEC.md §6 and the
 * role-scope rule of DECISIONS.md; common/policy.ts decides, these only explain.
 */
import type { Role, Scope } from './enums';

export const ROLE_HELP: Record<Role, string> = {
  SUPERVISOR: 'Operator staff: approves, administers and supervises everything its scope reaches.',
  ADMINISTRATOR: 'Runs the organization: members, invitations, roles, organization details.',
  APPROVER: 'Operator staff: approves, revokes and rejects certificates and licenses.',
  ISSUER: 'Uploads certificates and requests or renews licenses.',
  MEMBER: 'Reads the organization\'s certificates, licenses, resources and journal.',
  DEVOPS: 'Operator staff: master secret, API tokens and the download gateway.',
};

export const SCOPE_HELP: Record<Scope, string> = {
  ORGANIZATION: 'In this organization only.',
  MANAGED: 'In the organizations this one manages, not in itself.',
  COOPERATION: 'In this organization and the ones it manages.',
};
