/**
 * Resources are global, so the rules of SPEC.md §6 for them target the operator organization
 * itself (docs/decisions.md "Permissions"). The server decides; these only show or hide controls.
 */
import { canGlobally, canOnOperator, type Actor } from '../../../../common/policy';
import type { Organization } from '../../../../common/schemas/organization';

/** Create, save and delete resources: SUPERVISOR or DEVOPS of the operator (one set of roles for the three). */
export function canEditResources(actor: Actor | null): boolean {
  return canOnOperator(actor, 'resource.create') && canOnOperator(actor, 'resource.update') && canOnOperator(actor, 'resource.delete');
}

/** Those who manage resources see their locations and grants; the server leaves them out for others. */
export const canManageResources = (actor: Actor | null): boolean => canGlobally(actor, 'resource.manage');

/** Only operator staff may read the whole catalogue (GET /api/resources). */
const canListResources = (actor: Actor | null): boolean => canGlobally(actor, 'resource.read');

/**
 * Toggle an organization's access on its Resources tab: operator staff with a SUPERVISOR or
 * DEVOPS role that applies to that organization (the organization's abilities, from the server).
 */
export function canToggleOrganization(actor: Actor | null, organization: Organization | undefined): boolean {
  return canListResources(actor) && !!organization?.abilities.includes('resource.toggleOrganization');
}
