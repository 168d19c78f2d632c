/**
 * Resources are global, so the rules of SPEC.md §6 for them target the operator organization
 * itself (docs/decisions.md "Permissions"). The server decides; these only show or hide controls.
 */
import { ACTIONS, can, SCREENS, type Actor, type TargetOrganization } from '../../../../common/policy';
import type { Role } from '../../../../common/enums';
import type { Organization } from '../../../../common/schemas/organization';

function operatorTarget(actor: Actor | null): TargetOrganization | null {
  const id =
    actor?.roles.find((a) => a.organization_role === 'OPERATOR')?.organization_id ??
    (actor?.organization_role === 'OPERATOR' ? actor.organization_id : undefined);
  return id ? { organization_id: id, ancestor_ids: [] } : null;
}

/** Create, save and delete resources: SUPERVISOR or DEVOPS of the operator. */
export function canEditResources(actor: Actor | null): boolean {
  const target = operatorTarget(actor);
  return !!target && can(actor, 'resource.create', target);
}

/** Grant on the resource screen: SUPERVISOR or ADMINISTRATOR of the operator, scope not MANAGED. */
export function canGrantResources(actor: Actor | null): boolean {
  const target = operatorTarget(actor);
  return !!target && can(actor, 'resource.grant', target);
}

/** Only operator staff may read the whole catalogue (GET /api/resources). */
export const canListResources = (actor: Actor | null): boolean => SCREENS.resources(actor);

/**
 * Toggle an organization's access on its Resources tab: operator staff with a SUPERVISOR or
 * DEVOPS role that applies to that organization. GET /api/organizations/{id} lists exactly the
 * caller's applying roles, which spares the web app the organization's ancestry.
 */
export function canToggleOrganization(actor: Actor | null, organization: Organization | undefined): boolean {
  const allowed: readonly Role[] = ACTIONS['resource.toggleOrganization'];
  return canListResources(actor) && !!organization?.roles.some((r) => allowed.includes(r.role));
}
