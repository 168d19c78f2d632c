/**
 * The CSV exports are authorized as their lists are (docs/decisions.md "CSV export"): for the same
 * callers an export answers what its JSON list answers, refusals with the same body.
 */
import { expect } from 'vitest';
import type { Cooperation } from './factories';
import type { TestApp } from './test-app';

/**
 * `list` names an organization's list below its URL (`certificates`), `all` the list across
 * organizations (`/api/certificates`). Between them the callers meet 200, 401, 403 and 404.
 */
export async function expectExportAuthorizedAsList(t: TestApp, w: Cooperation, list: string, all: string): Promise<void> {
  const cases: Array<[string | null, string]> = [
    [null, w.customer.id], [w.partnerIssuer.email, w.customer.id], [w.issuer.email, w.partner.id], [w.issuer.email, 'no-such-id'],
    [w.bannedMember.email, w.banned.id], [w.member.email, w.customer.id], [w.devops.email, w.customer.id],
  ];
  const statuses = new Set<number>();
  for (const [as, org] of cases) {
    const url = `/api/organizations/${org}/${list}`;
    const answer = await t.call(as, { method: 'GET', url });
    const csv = await t.call(as, { method: 'GET', url: `${url}.csv` });
    expect(csv.statusCode, `${as} ${org}`).toBe(answer.statusCode);
    if (answer.statusCode !== 200) expect(csv.json()).toEqual(answer.json());
    statuses.add(answer.statusCode);
  }
  expect([...statuses].sort()).toEqual([200, 401, 403, 404]);
  for (const as of [null, w.bannedMember.email, w.member.email]) {
    const answer = await t.call(as, { method: 'GET', url: all });
    expect((await t.call(as, { method: 'GET', url: `${all}.csv` })).statusCode, String(as)).toBe(answer.statusCode);
  }
}
