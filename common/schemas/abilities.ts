import { z } from 'zod';
import { ACTIONS, OBJECT_ACTIONS, type Action } from '../policy';

const actionNames = Object.keys(ACTIONS) as [Action, ...Action[]];

/**
 * `abilities` of an object: the actions of its kind (policy.ts OBJECT_ACTIONS) that the caller may
 * take on it, decided by common/policy.ts on the server (roles, scope, rules beyond roles). Whether
 * its state allows one (already approved, expired …) is common/status.ts's, from its own dates.
 */
export const abilitiesOf = (kind: keyof typeof OBJECT_ACTIONS) =>
  z.array(z.enum(actionNames)).describe(
    `What the caller may do to this ${kind} by their roles (common/policy.ts), out of: ${OBJECT_ACTIONS[kind].join(', ')}. Its state decides the rest.`,
  );
