/**
 * Open lists follow the clock (issue 30 item 10, docs/decisions.md "Kept answers"): an answer says in
 * X-Changes-In when it may differ by time alone, so a list filtered on time (hide expired, hide valid,
 * a time status, expiring within) is fetched again at the next instant a row enters or leaves it. With
 * the injected clock: the answer holds until the instant told, the row leaves (or comes) at it, and the
 * instant is the organization's own, not another tenant's.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { testDialects } from '../support/databases';
import { useTestApp } from '../support/test-app';
import { START } from '../support/tokens';
import { factories, type Cooperation, type Org } from '../support/factories';

const dialects = await testDialects();
const DAY = 86_400_000;

describe.each(dialects)('lists that change by time alone on %s', (dialect) => {
  const t = useTestApp(dialect, { demo: false });
  const make = factories(t);
  let w: Cooperation;
  beforeAll(async () => {
    w = await make.cooperation();
  });
  const get = (url: string, at: Date | number, headers: Record<string, string> = {}) => {
    t.clock.set(new Date(at));
    return t.call(w.supervisor.email, { method: 'GET', url, headers });
  };
  const changesIn = (res: LightMyRequestResponse) => res.headers['x-changes-in'];
  const total = (res: LightMyRequestResponse) => Number(res.headers['x-total-count']);

  it.each([
    ['hideExpired=true', 1, 0],
    ['status=valid', 1, 0],
    ['status=expired', 0, 1],
    ['hideValid=true', 0, 1],
  ])('a certificate list with %s says when its row leaves or comes, and changes exactly then', async (filter, before, after) => {
    const customer = await make.organization({ parent: w.partner });
    const other = await make.organization({ parent: w.partner });
    const start = START.getTime();
    const ends = start + 5 * DAY;
    await make.certificate(customer, 'approved', { from: -10, to: 5 });
    // Another tenant's certificate ends sooner: it does not make this list ask again.
    await make.certificate(other, 'approved', { from: -10, to: 1 });
    const url = `/api/organizations/${customer.id}/certificates?${filter}`;

    const now = await get(url, start);
    expect([now.statusCode, total(now), changesIn(now)]).toEqual([200, before, String(ends - start)]);
    const justBefore = await get(url, ends - 1);
    expect([total(justBefore), changesIn(justBefore), justBefore.body]).toEqual([before, '1', now.body]);
    const at = await get(url, ends);
    expect([total(at), changesIn(at)]).toEqual([after, 'never']);
  });

  it('a license list "expiring within 7 days" says when a license comes within 7 days and when it ends', async () => {
    const customer = await make.organization({ parent: w.partner });
    const made = await make.license(customer, 'approved', { from: -10, days: 20 });
    const start = START.getTime();
    const today = Date.UTC(2026, 2, 15);
    const ends = today + 10 * DAY;
    const url = `/api/organizations/${customer.id}/licenses?expiringWithin=7&name=${encodeURIComponent(made.name)}`;
    const entering = ends - 7 * DAY;
    const now = await get(url, start);
    // No row yet: the next instant is the license's coming within 7 days of its end.
    expect([total(now), Number(changesIn(now))]).toEqual([0, entering - start]);
    expect(total(await get(url, entering - 1))).toBe(0);
    const entered = await get(url, entering);
    // Shown, its days left step at each midnight UTC (its end's time of day).
    expect([total(entered), Number(changesIn(entered))]).toEqual([1, DAY]);
    const leaving = await get(url, ends - 1);
    expect([total(leaving), changesIn(leaving)]).toEqual([1, '1']);
    expect(total(await get(url, ends))).toBe(0);
  });

  it('keeps the admin lists over every organization only until a write in any of them', async () => {
    const totals = async () => Promise.all(['certificates', 'licenses', 'members'].map(async (list) => total(await get(`/api/${list}?limit=1`, START))));
    const before = await totals();
    expect(await totals()).toEqual(before);
    // Written outside the portal, in a customer of its own: each list counts it at the next call.
    const customer = await make.organization({ parent: w.partner });
    await make.certificate(customer, 'requested');
    await make.license(customer, 'requested');
    await make.member(customer);
    expect(await totals()).toEqual(before.map((n) => n + 1));
  });

  it('the 304 of an unchanged answer carries the instant, counted from the new request; an unfiltered certificate list changes never', async () => {
    const customer: Org = await make.organization({ parent: w.partner });
    await make.certificate(customer, 'approved', { from: -10, to: 5 });
    const url = `/api/organizations/${customer.id}/certificates?hideExpired=true`;
    const first = await get(url, START);
    const again = await get(url, START.getTime() + DAY, { 'if-none-match': String(first.headers.etag) });
    expect([again.statusCode, changesIn(again)]).toEqual([304, String(4 * DAY)]);
    const plain = await get(`/api/organizations/${customer.id}/certificates`, START);
    expect(changesIn(plain)).toBe('never');
    // The admin list across organizations tells it as well.
    const admin = await get('/api/certificates?hideExpired=true', START);
    expect(Number(changesIn(admin))).toBeGreaterThan(0);
  });

  it('the OpenAPI document names the header on the lists', async () => {
    const doc = (await t.call(null, { method: 'GET', url: '/api/docs/json' })).json();
    for (const path of ['/api/organizations/{id}/certificates', '/api/organizations/{id}/licenses', '/api/certificates', '/api/licenses']) {
      expect(doc.paths[path].get.responses['200'].headers['x-changes-in'].description, path).toMatch(/milliseconds from now/);
    }
  });
});
