/**
 * Sends a bulk action in requests of at most BULK_LIMIT items (docs/decisions.md "Bulk actions"):
 * the chosen rows in slices, or "all that match" again and again, each time up to what is left of
 * the count the person confirmed, until that many are answered or nothing more matches.
 */
import { BULK_LIMIT } from '../../../common/bulk';

export interface BulkRunResult<R> {
  results: R[];
  remaining: number | null;
}

export type BulkBody = { items: object[] } | { match: Record<string, string>; limit: number };

export type BulkPlan = { items: object[] } | { match: Record<string, string>; count: number };

/** Fills `results` as the answers come (what was answered stays there if a later request fails). */
export async function runBulk<R>(send: (body: BulkBody) => Promise<BulkRunResult<R>>, plan: BulkPlan, results: R[], onProgress: (answered: number) => void): Promise<void> {
  if ('items' in plan) {
    for (let i = 0; i < plan.items.length; i += BULK_LIMIT) {
      results.push(...(await send({ items: plan.items.slice(i, i + BULK_LIMIT) })).results);
      onProgress(results.length);
    }
    return;
  }
  while (results.length < plan.count) {
    const answer = await send({ match: plan.match, limit: Math.min(BULK_LIMIT, plan.count - results.length) });
    results.push(...answer.results);
    onProgress(results.length);
    if (answer.results.length === 0 || answer.remaining === 0) break;
  }
}

/**
 * A list's request as "all that match": its filters as the URL carries them (`"true"`, numbers as
 * text), without page and order, and the organization of one organization's list.
 */
export function matchOf(request: object, organizationId: string | null): Record<string, string> {
  const match: Record<string, string> = {};
  for (const [key, value] of Object.entries(request)) {
    if (key === 'offset' || key === 'limit' || value === undefined || value === null || value === '' || value === false) continue;
    match[key] = String(value);
  }
  if (organizationId) match.organization_id = organizationId;
  return match;
}
