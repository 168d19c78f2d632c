/**
 * The day a renewal starts on (docs/decisions.md "Licenses"): the requester's day when the call
 * names it (`?time_zone=`, or `?today=`, the instant their day started), else today in the zone of
 * the license renewed (UTC for one requested without a zone, as before).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '../../../test/support/databases';
import { useTestApp } from '../../../test/support/test-app';
import { factories, type Org, type Person } from '../../../test/support/factories';
import type { License } from '../../../common/schemas/license';
import { startOfUtcDay } from '../../../common/status';
import { renewalWindow, todayStart } from './days';

const dialects = await testDialects();
const DAY = 86_400_000;
const HOUR = 3_600_000;

describe('todayStart and renewalWindow', () => {
  const now = new Date('2026-03-16T03:30:00.000Z'); // 15-MAR 23:30 in New York, 16-MAR in UTC
  const utcLicense = { date_valid_from: '2026-01-01T00:00:00.000Z', date_valid_until: '2026-01-21T00:00:00.000Z', time_zone: 'UTC', days_valid: 20 };
  const renewalStart = (at: Date, today?: string) => renewalWindow(at, utcLicense, { today }).date_valid_from;
  it('is the UTC day without the requester’s, for a license counted in UTC', () => {
    expect(renewalStart(now)).toBe('2026-03-16T00:00:00.000Z');
  });
  it('is the instant the requester’s day started, in any zone', () => {
    expect(renewalStart(now, '2026-03-15T04:00:00.000Z')).toBe('2026-03-15T04:00:00.000Z'); // New York
    expect(renewalStart(now, '2026-03-16T00:00:00+14:00')).toBe('2026-03-15T10:00:00.000Z'); // Kiritimati's midnight, as UTC
  });
  it('takes a day start of the last 24 hours, with an hour for the requester’s clock: t − 1 ms, t, t + 1 ms', () => {
    const earliest = now.getTime() - DAY - HOUR;
    const latest = now.getTime() + HOUR;
    for (const t of [earliest, earliest + 1, latest - 1, latest]) expect(renewalStart(now, new Date(t).toISOString())).toBe(new Date(t).toISOString());
    for (const t of [earliest - 1, latest + 1]) expect(() => renewalStart(now, new Date(t).toISOString())).toThrow(/the instant your day started/);
  });
  it('refuses what is no instant', () => {
    for (const text of ['', 'today', '2026-02-30T00:00:00Z', '2026-03-15T04:00']) expect(() => todayStart(now, text)).toThrow(/the instant your day started/);
  });
});

describe.each(dialects)('renewal day on %s', (dialect) => {
  const t = useTestApp(dialect, { demo: false });
  const make = factories(t);
  /** A customer with an issuer, who renews; the licenses are each test's own. */
  let customer: Org;
  let issuer: Person;
  beforeAll(async () => {
    customer = await make.organization();
    issuer = await make.member(customer, { role: 'ISSUER' });
  });

  /** An approved license of the customer whose 20 days ended 10 days ago, as the issuer reads it. */
  async function expired(): Promise<License> {
    const made = await make.license(customer, 'expired', { from: -30, days: 20 });
    const res = await t.call(issuer.email, { method: 'GET', url: `/api/licenses/${made.id}` });
    expect(res.statusCode).toBe(200);
    expect(res.json().days_left).toBeLessThan(0);
    return res.json();
  }

  const renew = (l: License, today?: string) =>
    t.call(issuer.email, { method: 'POST', url: `/api/licenses/${l.license_id}/renew`, query: { version: String(l.version), ...(today === undefined ? {} : { today }) } });

  it("starts on the requester's day when the call names it: New York's evening is still its 15-MAR", async () => {
    t.clock.set('2026-03-16T03:30:00.000Z');
    const l = await expired();
    const renewed = await renew(l, '2026-03-15T04:00:00.000Z');
    expect(renewed.statusCode).toBe(201);
    const successor: License = renewed.json();
    expect(successor.date_valid_from).toBe('2026-03-15T04:00:00.000Z');
    expect(successor.date_valid_until).toBe(new Date(Date.parse('2026-03-15T04:00:00.000Z') + l.days_valid * DAY).toISOString());
  });

  it('starts on the UTC day without it, as before', async () => {
    t.clock.set('2026-03-16T03:30:00.000Z');
    const renewed = await renew(await expired());
    expect(renewed.statusCode).toBe(201);
    expect(renewed.json().date_valid_from).toBe(startOfUtcDay(t.clock.now()).toISOString());
  });

  it('refuses a day that is not the requester’s today with 400, and changes nothing', async () => {
    t.clock.set('2026-03-16T03:30:00.000Z');
    const l = await expired();
    const refused = await renew(l, '2026-03-10T00:00:00.000Z');
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toMatch(/the instant your day started/);
    const after: License = (await t.call(issuer.email, { method: 'GET', url: `/api/licenses/${l.license_id}` })).json();
    expect(after.version).toBe(l.version);
    expect(after.extended_by).toBeNull();
  });
});
