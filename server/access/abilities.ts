/**
 * The `abilities` objects carry (common/policy.ts OBJECT_ACTIONS): what the caller may do to each,
 * by the policy, for a page of objects at once. Targets come from the kept parent map (tree.ts),
 * so a page costs no query per row.
 */
import { abilitiesOn, OBJECT_ACTIONS, type Action, type Actor } from '../../common/policy';
import type { Queryable } from '../db/database';
import type { Versions } from '../db/versions';
import { loadTargets } from './tree';

/** Abilities per organization of the given rows, for one kind of object. */
export async function abilitiesIn(
  db: Queryable, actor: Actor & { versions?: Versions }, kind: keyof typeof OBJECT_ACTIONS, organizationIds: string[],
): Promise<(organizationId: string) => Action[]> {
  const targets = await loadTargets(db, [...new Set(organizationIds)], actor);
  const answers = new Map<string, Action[]>();
  return (organizationId) => {
    let answer = answers.get(organizationId);
    if (!answer) answers.set(organizationId, (answer = abilitiesOn(actor, OBJECT_ACTIONS[kind], targets.get(organizationId)!)));
    return answer;
  };
}
