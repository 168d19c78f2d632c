/**
 * What bulk actions share (docs/decisions.md "Bulk actions"): where the caller may take an action
 * ("all that match" acts only there), and running items one by one through the single call, each
 * refusal caught and reported for its item while the others go on.
 */
import { can, type Action, type Actor } from '../../common/policy';
import type { Queryable } from '../db/database';
import type { Versions } from '../db/versions';
import { HttpError } from '../errors';
import { authorize } from './authorize';
import { loadTargets, readableOrganizationIds } from './tree';

export interface BulkScope {
  /** The organizations whose rows the list shows ('all': every one). */
  reading: 'all' | string[];
  /** Of those, where the caller may take the action. */
  acting: 'all' | string[];
}

/**
 * One organization's list (404 for one the caller cannot read, as the list), or the admin list
 * across the readable organizations; and where in it the policy lets the caller take `action`.
 */
export async function bulkScope(db: Queryable, actor: Actor & { versions?: Versions }, action: Action, organizationId?: string): Promise<BulkScope> {
  if (organizationId !== undefined) {
    const target = await authorize(db, actor, 'read', organizationId);
    return { reading: [organizationId], acting: can(actor, action, target) ? [organizationId] : [] };
  }
  const reading = await readableOrganizationIds(db, actor);
  // Organizations number in the thousands at most; their targets come from the kept parent map.
  const ids = reading === 'all' ? (await db.selectFrom('organizations').select('organization_id').execute()).map((o) => o.organization_id) : reading;
  const targets = await loadTargets(db, ids, actor);
  const acting = ids.filter((id) => can(actor, action, targets.get(id)!));
  return { reading, acting: reading === 'all' && acting.length === ids.length ? 'all' : acting };
}

export type Outcome = { outcome: 'done' | 'refused' | 'failed'; status: number; message: string };

/**
 * Runs `run` for each item in turn (each is its own transaction, as the single call). A refusal
 * (4xx: 403, 404, 409) is that item's answer; a server error is logged and reported as failed, its
 * transaction rolled back; neither stops the others.
 */
export async function eachItem<K extends object>(
  items: K[], run: (item: K) => Promise<{ message: string } & Partial<K>>, log: { error(o: object, m: string): void },
): Promise<Array<K & Outcome>> {
  const results: Array<K & Outcome> = [];
  for (const item of items) {
    try {
      const { message, ...more } = await run(item);
      results.push({ ...item, ...more, outcome: 'done', status: 200, message });
    } catch (error) {
      if (error instanceof HttpError && error.statusCode < 500) {
        results.push({ ...item, outcome: 'refused', status: error.statusCode, message: error.message });
      } else {
        log.error({ err: error }, 'bulk action item failed');
        results.push({ ...item, outcome: 'failed', status: 500, message: 'The server could not act on this item; it was not changed.' });
      }
    }
  }
  return results;
}

/** The answer's counts beside the per-item results. */
export function summary<R extends Outcome>(results: R[], remaining: number | null) {
  const count = (o: Outcome['outcome']) => results.filter((r) => r.outcome === o).length;
  return { done: count('done'), refused: count('refused'), failed: count('failed'), results, remaining };
}
