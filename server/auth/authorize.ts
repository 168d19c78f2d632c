/**
 * Server-side enforcement of common/policy.ts. An organization where the actor has no applying
 * role at all behaves as missing (404), so ids of other tenants reveal nothing; one where they
 * may read but not act answers 403.
 */
import { can, type Action, type Actor, type TargetOrganization } from '../../common/policy';
import type { Queryable } from '../db/database';
import { loadTarget } from '../modules/organizations/tree';
import { forbidden, notFound } from '../errors';
import type { RequestActor } from './actor';

export async function authorize(
  db: Queryable,
  actor: Actor,
  action: Action,
  organizationId: string,
  missing = 'Organization not found.',
): Promise<TargetOrganization> {
  const target = await loadTarget(db, organizationId, (actor as Partial<RequestActor>).epoch).catch(() => {
    throw notFound(missing);
  });
  if (!can(actor, 'read', target)) throw notFound(missing);
  if (!can(actor, action, target)) throw forbidden('Your roles do not allow this here.');
  return target;
}

/**
 * The operator organization as the actor's own roles name it; operator-only actions (resources,
 * the master secret, API tokens) target it. Null for people outside the operator.
 */
export function operatorTargetOf(actor: Actor): TargetOrganization | null {
  const operator = actor.roles.find((a) => a.organization_role === 'OPERATOR')?.organization_id;
  return operator ? { organization_id: operator, ancestor_ids: [] } : null;
}

/** 403 with `refusal` unless the action is allowed on the operator organization; returns its id. */
export function authorizeOperator(actor: RequestActor, action: Action, refusal: string): string {
  const operator = operatorTargetOf(actor);
  if (!operator || !can(actor, action, operator)) throw forbidden(refusal);
  return operator.organization_id;
}
