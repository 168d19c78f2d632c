/**
 * The requester's zone (docs/decisions.md "Licenses"): `time_zone` on a request, an approval and a
 * renewal makes `days_valid` calendar days there (DECISIONS.md "Licenses"); a bad zone is a 400 that
 * changes nothing; without one the API counts in UTC as before, and a renewal starts today in the
 * renewed license's zone. Every place that shows the end shows the same one: list, details, CSV, key.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import { testDialects } from '../../../test/support/databases';
import { useTestApp } from '../../../test/support/test-app';
import { factories, type Cooperation } from '../../../test/support/factories';
import { verifyLicenseKey } from '../../../common/license-key';
import type { License } from '../../../common/schemas/license';

const dialects = await testDialects();

describe.each(dialects)('license days in the requester’s zone on %s', (dialect) => {
  const t = useTestApp(dialect, { demo: false });
  const make = factories(t);
  let w: Cooperation;
  beforeAll(async () => {
    w = await make.cooperation();
  });
  let serial = 0;
  const fresh = (prefix: string) => `${prefix} ${dialect} ${String(++serial).padStart(4, '0')}`;
  const request = (body: Record<string, unknown>) =>
    t.call(w.supervisor.email, { method: 'POST', url: `/api/organizations/${w.customer.id}/licenses`, payload: body });
  const read = async (id: string): Promise<License> => (await t.call(w.supervisor.email, { method: 'GET', url: `/api/licenses/${id}` })).json();
  const approve = (l: License, edits: Record<string, unknown> = {}) =>
    t.call(w.approver.email, { method: 'POST', url: `/api/licenses/${l.license_id}/approve`, payload: { ...l, ...edits } });
  const renew = (l: License, query: Record<string, string> = {}) =>
    t.call(w.supervisor.email, { method: 'POST', url: `/api/licenses/${l.license_id}/renew`, query: { version: String(l.version), ...query } });
  const count = async (name: string) =>
    Number((await t.db.selectFrom('licenses').select((eb) => eb.fn.countAll<number>().as('n')).where('license_name', '=', name).executeTakeFirstOrThrow()).n);

  describe('a request', () => {
    it('of 10 days from 26-MAR-2027 in Berlin ends 05-APR-2027 00:00 Berlin, given as the date or as its midnight', async () => {
      for (const date_valid_from of ['2027-03-26', '2027-03-25T23:00:00.000Z', '2027-03-26T00:00:00+01:00']) {
        const res = await request({ license_name: fresh('Berlin'), date_valid_from, days_valid: 10, time_zone: 'Europe/Berlin' });
        expect(res.statusCode, date_valid_from).toBe(201);
        expect(res.json(), date_valid_from).toMatchObject({
          date_valid_from: '2027-03-25T23:00:00.000Z', date_valid_until: '2027-04-04T22:00:00.000Z', days_valid: 10, time_zone: 'Europe/Berlin',
        });
      }
    });

    it('is journaled with its first day in SPEC.md §9 form and its zone named, not as 2027-03-26', async () => {
      const name = fresh('Journaled');
      const res = await request({ license_name: name, date_valid_from: '2027-03-26', days_valid: 10, time_zone: 'Europe/Berlin' });
      expect(res.statusCode).toBe(201);
      const record = await t.db.selectFrom('audit_records').select('message').where('message', 'like', `Requested license ${name} %`).executeTakeFirstOrThrow();
      expect(record.message).toBe(`Requested license ${name} (EVALUATION, 10 days from 26-MAR-2027 in Europe/Berlin).`);
    });

    it('counts calendar days across the changes in New York (spring) and Auckland (autumn)', async () => {
      const ny = await request({ license_name: fresh('New York'), date_valid_from: '2027-03-12', days_valid: 10, time_zone: 'America/New_York' });
      expect(ny.json()).toMatchObject({ date_valid_from: '2027-03-12T05:00:00.000Z', date_valid_until: '2027-03-22T04:00:00.000Z' });
      const akl = await request({ license_name: fresh('Auckland'), date_valid_from: '2027-04-01', days_valid: 10, time_zone: 'pacific/auckland' });
      expect(akl.json()).toMatchObject({ date_valid_from: '2027-03-31T11:00:00.000Z', date_valid_until: '2027-04-10T12:00:00.000Z', time_zone: 'Pacific/Auckland' });
    });

    it('starts today in the zone when no day is given: New York’s evening is still its own day', async () => {
      t.clock.set('2026-03-16T03:30:00.000Z'); // 15-MAR 23:30 in New York
      const res = await request({ license_name: fresh('Tonight'), days_valid: 1, time_zone: 'America/New_York' });
      expect(res.json()).toMatchObject({ date_valid_from: '2026-03-15T04:00:00.000Z', date_valid_until: '2026-03-16T04:00:00.000Z' });
    });

    it('without a zone counts in UTC as before: the UTC day, 24-hour days from any instant', async () => {
      t.clock.set('2026-03-16T03:30:00.000Z');
      const today = await request({ license_name: fresh('UTC'), days_valid: 10 });
      expect(today.json()).toMatchObject({ date_valid_from: '2026-03-16T00:00:00.000Z', date_valid_until: '2026-03-26T00:00:00.000Z', time_zone: 'UTC' });
      const midnight = await request({ license_name: fresh('Own midnight'), date_valid_from: '2027-03-25T23:00:00.000Z', days_valid: 10 });
      expect(midnight.json()).toMatchObject({ date_valid_until: '2027-04-04T23:00:00.000Z', time_zone: 'UTC' });
    });

    it('refuses a zone that is none with 400 naming time_zone, and stores nothing', async () => {
      for (const time_zone of ['Mars/Olympus', '+01:00', '', 'Europe/Berlin; drop table licenses', 42]) {
        const name = fresh('Bad zone');
        const res = await request({ license_name: name, date_valid_from: '2027-03-26', days_valid: 10, time_zone });
        expect(res.statusCode, String(time_zone)).toBe(400);
        expect(res.json().field, String(time_zone)).toBe('time_zone');
        expect(await count(name)).toBe(0);
      }
      const name = fresh('Bad zone');
      expect((await request({ license_name: name, time_zone: 'Mars/Olympus' })).json().message).toMatch(/IANA time zone/);
    });

    it('refuses a start that is not midnight in the zone with 400 naming date_valid_from and the midnight meant, and stores nothing', async () => {
      const name = fresh('Not midnight');
      const res = await request({ license_name: name, date_valid_from: '2027-03-26T00:00:00.000Z', days_valid: 10, time_zone: 'Europe/Berlin' });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ field: 'date_valid_from' });
      expect(res.json().message).toContain('2027-03-25T23:00:00.000Z');
      expect(await count(name)).toBe(0);
    });
  });

  describe('an approval', () => {
    async function berlin(): Promise<License> {
      const res = await request({ license_name: fresh('To approve'), date_valid_from: '2027-03-26', days_valid: 10, time_zone: 'Europe/Berlin' });
      expect(res.statusCode).toBe(201);
      return res.json();
    }

    it('keeps the license’s zone while its start stays, whatever zone the approver is in', async () => {
      const res = await approve(await berlin(), { days_valid: 12, time_zone: 'America/New_York' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ date_valid_from: '2027-03-25T23:00:00.000Z', date_valid_until: '2027-04-06T22:00:00.000Z', time_zone: 'Europe/Berlin' });
    });

    it('counts a moved start in the approver’s zone', async () => {
      const res = await approve(await berlin(), { date_valid_from: '2027-03-27', time_zone: 'America/New_York' });
      expect(res.json()).toMatchObject({ date_valid_from: '2027-03-27T04:00:00.000Z', date_valid_until: '2027-04-06T04:00:00.000Z', time_zone: 'America/New_York' });
    });

    it('refuses a moved start that is not midnight in the zone, or a bad zone, and changes nothing', async () => {
      const l = await berlin();
      const notMidnight = await approve(l, { date_valid_from: '2027-03-27T12:00:00.000Z' });
      expect(notMidnight.statusCode).toBe(400);
      expect(notMidnight.json().field).toBe('date_valid_from');
      const badZone = await approve(l, { time_zone: 'Nowhere/Land' });
      expect(badZone.statusCode).toBe(400);
      expect(badZone.json().field).toBe('time_zone');
      expect(await read(l.license_id)).toEqual(l);
    });
  });

  describe('a renewal', () => {
    /** An approved license of 20 days requested in `zone` from 01-OCT-2026, expired by 28-NOV. */
    async function expired(zone?: string): Promise<License> {
      t.clock.set('2026-09-20T12:00:00.000Z');
      const made = await request({ license_name: fresh('Renewable'), date_valid_from: '2026-10-01', days_valid: 20, ...(zone && { time_zone: zone }) });
      expect(made.statusCode).toBe(201);
      const approved = await approve(made.json());
      expect(approved.statusCode).toBe(200);
      t.clock.set('2026-11-28T12:00:00.000Z'); // 07:00 in New York, 29-NOV 01:00 in Auckland
      return read(made.json().license_id);
    }

    it('without a day starts today in the renewed license’s zone: Auckland is already on 29-NOV', async () => {
      const res = await renew(await expired('Pacific/Auckland'));
      expect(res.statusCode).toBe(201);
      expect(res.json()).toMatchObject({ date_valid_from: '2026-11-28T11:00:00.000Z', date_valid_until: '2026-12-18T11:00:00.000Z', time_zone: 'Pacific/Auckland' });
    });

    it('with the caller’s zone starts today there and counts the days there: New York is on 28-NOV', async () => {
      const res = await renew(await expired(), { time_zone: 'America/New_York' });
      expect(res.statusCode).toBe(201);
      expect(res.json()).toMatchObject({ date_valid_from: '2026-11-28T05:00:00.000Z', date_valid_until: '2026-12-18T05:00:00.000Z', time_zone: 'America/New_York' });
    });

    it('takes `today` with the zone when it is midnight there', async () => {
      const res = await renew(await expired(), { time_zone: 'America/New_York', today: '2026-11-28T05:00:00.000Z' });
      expect(res.json()).toMatchObject({ date_valid_from: '2026-11-28T05:00:00.000Z', time_zone: 'America/New_York' });
    });

    it('refuses a bad zone, or a `today` that is not midnight in it, with 400 naming the parameter, and changes nothing', async () => {
      const l = await expired();
      const badZone = await renew(l, { time_zone: 'Atlantis/Capital' });
      expect(badZone.statusCode).toBe(400);
      expect(badZone.json().field).toBe('time_zone');
      const badToday = await renew(l, { time_zone: 'America/New_York', today: '2026-11-28T00:00:00.000Z' });
      expect(badToday.statusCode).toBe(400);
      expect(badToday.json().field).toBe('today');
      expect(await read(l.license_id)).toEqual(l);
    });
  });

  it('shows one end everywhere: list, details, CSV and license key', async () => {
    const secret = await t.call(w.devops.email, { method: 'POST', url: '/api/admin/mastersecret', payload: 'time-zone test master secret', headers: { 'content-type': 'text/plain' } });
    expect([200, 409]).toContain(secret.statusCode);
    const name = fresh('Everywhere');
    const made = await request({ license_name: name, date_valid_from: '2027-03-26', days_valid: 10, time_zone: 'Europe/Berlin' });
    await approve(made.json());
    const end = '2027-04-04T22:00:00.000Z';
    const id = made.json().license_id;
    const query = { name };
    const list = await t.call(w.member.email, { method: 'GET', url: `/api/organizations/${w.customer.id}/licenses`, query });
    expect(list.json().map((l: License) => [l.date_valid_until, l.time_zone])).toEqual([[end, 'Europe/Berlin']]);
    expect((await read(id)).date_valid_until).toBe(end);
    const csv = await t.call(w.member.email, { method: 'GET', url: `/api/organizations/${w.customer.id}/licenses.csv`, query });
    const rows = parse(csv.body.replace(/^\uFEFF/, ''), { columns: true }) as Array<Record<string, string>>;
    expect(rows.map((r) => [r.date_valid_until, r.time_zone])).toEqual([[end, 'Europe/Berlin']]);
    const key = await t.call(w.member.email, { method: 'GET', url: `/api/licenses/${id}/license-key` });
    const publicKey = await t.call(null, { method: 'GET', url: '/api/licenses/public-key' });
    expect(verifyLicenseKey(key.body, publicKey.body).date_valid_until).toBe(end);
  });

  it('documents the zone in the OpenAPI document: request, approval and renewal, with the default', async () => {
    const doc = (await t.call(null, { method: 'GET', url: '/api/docs/json' })).json();
    const body = (path: string) => doc.paths[path].post.requestBody.content['application/json'].schema;
    const requestZone = body('/api/organizations/{id}/licenses').properties.time_zone;
    expect(requestZone.description).toMatch(/IANA time zone.*calendar days.*Without it: UTC/s);
    expect(body('/api/licenses/{id}/approve').properties.time_zone.description).toMatch(/IANA time zone/);
    const parameters = doc.paths['/api/licenses/{id}/renew'].post.parameters as Array<{ name: string; in: string; description?: string }>;
    expect(parameters.find((p) => p.name === 'time_zone')).toMatchObject({ in: 'query', description: expect.stringMatching(/Without it and without `today`: today in the original license's zone/) });
    expect(parameters.find((p) => p.name === 'today')?.description).toMatch(/midnight/);
  });
});
