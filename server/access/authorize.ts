/**
 * Server-side enforcement of common/policy.ts, the one way services decide: load the target,
 * ask the policy, answer. An organization where the actor has no applying role at all behaves as
 * missing (404), so ids of other tenants reveal nothing; one where they may read but not act
 * answers 403; a rule beyond roles (policy.ts memberRefusal, organizationRefusal) answers 409.
 */
import {
  can, canGlobally, canOnOperator, operatorTarget, type Action, type Actor, type GlobalAction, type TargetOrganization,
} from '../../common/policy';
import type { Queryable } from '../db/database';
import { loadTarget } from './tree';
import { conflict, forbidden, HttpError, notFound } from '../errors';
import type { RequestActor } from '../auth/actor';

export async function authorize(
  db: Queryable,
  actor: Actor,
  action: Action,
  organizationId: string,
  missing = 'Organization not found.',
): Promise<TargetOrganization> {
  // A missing organization reads as `missing`; any other failure (the database) stays what it is.
  const target = await loadTarget(db, organizationId, actor as Partial<RequestActor>).catch((error: unknown) => {
    throw error instanceof HttpError && error.statusCode === 404 ? notFound(missing) : error;
  });
  if (!can(actor, 'read', target)) throw notFound(missing);
  if (!can(actor, action, target)) throw forbidden('Your roles do not allow this here.');
  return target;
}

/** 403 with `refusal` unless the action is allowed on the operator organization; returns its id. */
export function authorizeOperator(actor: RequestActor, action: Action, refusal: string): string {
  if (!canOnOperator(actor, action)) throw forbidden(refusal);
  return operatorTarget(actor)!.organization_id;
}

/** 403 with `refusal` unless the policy allows this global action (policy.ts GLOBAL_ACTIONS). */
export function authorizeGlobal(actor: Actor, action: GlobalAction, refusal: string): void {
  if (!canGlobally(actor, action)) throw forbidden(refusal);
}

/** 409 with the policy's text when a rule beyond roles refuses the change (null: nothing does). */
export function refuseWhen(refusal: string | null): void {
  if (refusal) throw conflict(refusal);
}
