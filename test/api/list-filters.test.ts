/**
 * The filters of issue 12 item 2 over HTTP, on both engines: status chips, "expiring within N days"
 * (exact at its boundary with the injected clock, through the kept pages and totals), the range on
 * the end of validity, bad values refused with a message, and the CSV export under the same filters.
 * test/api/status-agreement.test.ts proves the SQL of each chip against common/status.ts.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import { DAY } from '../../common/dates';
import { testDialects } from '../support/databases';
import { useTestApp } from '../support/test-app';
import { factories, type Cooperation, type Org } from '../support/factories';

const dialects = await testDialects();

describe.each(dialects)('list filters on %s', (dialect) => {
  const t = useTestApp(dialect, { demo: false });
  const make = factories(t);
  let w: Cooperation;
  let READER: string;
  beforeAll(async () => {
    w = await make.cooperation();
    READER = w.supervisor.email;
  });

  async function list(url: string) {
    const res = await t.call(READER, { method: 'GET', url });
    expect(res.statusCode, res.body).toBe(200);
    return { rows: res.json() as Array<Record<string, unknown>>, total: Number(res.headers['x-total-count']) };
  }
  const names = (rows: Array<Record<string, unknown>>, key: string) => rows.map((r) => String(r[key])).sort();

  async function customerWithCertificates() {
    const org = await make.organization({ parent: w.partner });
    const made: Record<string, string> = {};
    for (const state of ['requested', 'approved', 'expired', 'acknowledged', 'revoked', 'future'] as const) made[state] = (await make.certificate(org, state)).dn;
    return { org, made };
  }

  it('narrows certificates to the chosen statuses: alternatives within a group, groups together', async () => {
    const { org, made } = await customerWithCertificates();
    const url = `/api/organizations/${org.id}/certificates`;
    const cases: Array<[string, string[]]> = [
      ['not_approved', [made.requested]],
      ['revoked', [made.revoked]],
      ['approved', [made.approved, made.expired, made.acknowledged, made.future]],
      ['expired', [made.expired, made.acknowledged]],
      ['approved,expired', [made.expired, made.acknowledged]],
      ['approved,expired,acknowledged', [made.acknowledged]],
      ['not_approved,revoked', [made.requested, made.revoked]],
      ['valid,approved', [made.approved]],
    ];
    for (const [status, want] of cases) {
      const page = await list(`${url}?status=${status}`);
      expect(names(page.rows, 'distinguished_name'), status).toEqual([...want].sort());
      expect(page.total, status).toBe(want.length);
    }
    // The admin list takes them too, and so does the order of the chips not matter.
    const admin = await list(`/api/certificates?status=expired,approved&limit=1000`);
    expect(admin.rows.filter((r) => r.organization_id === org.id).map((r) => r.distinguished_name).sort()).toEqual([made.expired, made.acknowledged].sort());
  });

  it('narrows licenses to their badges', async () => {
    const org = await make.organization({ parent: w.partner });
    const made: Record<string, string> = {};
    for (const state of ['requested', 'approved', 'future', 'rejected', 'expired', 'acknowledged', 'extension-requested', 'extended'] as const) {
      made[state] = (await make.license(org, state)).id;
    }
    const url = `/api/organizations/${org.id}/licenses`;
    const ids = async (status: string) => names((await list(`${url}?status=${status}`)).rows, 'license_id');
    expect(await ids('rejected')).toEqual([made.rejected]);
    expect(await ids('approved')).toContain(made.future);
    expect(await ids('approved')).not.toContain(made.approved); // in force: Valid, not Approved
    expect(await ids('extension_requested')).toEqual([made['extension-requested']]);
    expect(await ids('extended')).toEqual([made.extended]);
    expect(await ids('expired,acknowledged')).toEqual([made.acknowledged]);
    expect(await ids('rejected,not_approved')).toEqual(expect.arrayContaining([made.rejected, made.requested]));
  });

  it('"expiring within 30 days" takes a certificate in at exactly 30 days before its end and out when it ends, through kept pages', async () => {
    const org = await make.organization({ parent: w.partner });
    const { dn } = await make.certificate(org, 'approved', { from: -10, to: 31 });
    const url = `/api/organizations/${org.id}/certificates?expiringWithin=30`;
    const end = Date.parse(String((await list(`/api/organizations/${org.id}/certificates`)).rows[0].date_not_after));
    const at = async (ms: number) => {
      t.clock.set(new Date(ms));
      const page = await list(url);
      return { dns: page.rows.map((r) => r.distinguished_name), total: page.total };
    };
    expect(await at(t.clock.now().getTime())).toEqual({ dns: [], total: 0 });
    expect(await at(end - 30 * DAY - 1)).toEqual({ dns: [], total: 0 });
    expect(await at(end - 30 * DAY)).toEqual({ dns: [dn], total: 1 });
    expect(await at(end - 1)).toEqual({ dns: [dn], total: 1 });
    expect(await at(end)).toEqual({ dns: [], total: 0 });
  });

  it('"expiring within 7 days" of licenses is days left 1–7', async () => {
    const org = await make.organization({ parent: w.partner });
    const soon = await make.license(org, 'renewable'); // 3 days left
    await make.license(org, 'approved'); // 355 days left
    await make.license(org, 'expired');
    const page = await list(`/api/organizations/${org.id}/licenses?expiringWithin=7`);
    expect(page.rows.map((r) => r.license_id)).toEqual([soon.id]);
    expect(page.rows[0].days_left).toBe(3);
  });

  it('narrows to a range of the end of validity, from inclusive, before exclusive', async () => {
    const org = await make.organization({ parent: w.partner });
    await make.certificate(org, 'approved', { to: 10 });
    const { dn } = await make.certificate(org, 'approved', { to: 20 });
    const end = String((await list(`/api/organizations/${org.id}/certificates?status=approved&sort=-date_not_after`)).rows[0].date_not_after);
    const url = (from: string, before: string) => `/api/organizations/${org.id}/certificates?untilFrom=${encodeURIComponent(from)}&untilBefore=${encodeURIComponent(before)}`;
    const after = new Date(Date.parse(end) + 1).toISOString();
    expect((await list(url(end, after))).rows.map((r) => r.distinguished_name)).toEqual([dn]);
    expect((await list(url(after, new Date(Date.parse(end) + DAY).toISOString()))).total).toBe(0);
    expect((await list(url(new Date(Date.parse(end) - DAY).toISOString(), end))).total).toBe(0);
    // The same instant written with another offset (a browser's local midnight) is the same bound.
    const plusTwo = new Date(Date.parse(end) + 2 * 3600_000).toISOString().replace('Z', '+02:00');
    expect((await list(url(plusTwo, after))).rows.map((r) => r.distinguished_name)).toEqual([dn]);
  });

  it('refuses bad filter values with a message and writes nothing', async () => {
    const org = await make.organization({ parent: w.partner });
    const before = await t.db.selectFrom('audit_records').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    for (const [query, words] of [
      ['status=approved,bogus', /Unknown status 'bogus'/],
      ['status=extended', /Unknown status 'extended'/], // a license status, not a certificate's
      ['expiringWithin=0', /expiringWithin/],
      ['expiringWithin=3651', /expiringWithin/],
      ['expiringWithin=ten', /expiringWithin/],
      ['untilFrom=yesterday', /untilFrom/],
      ['untilBefore=2026-13-01T00:00:00Z', /untilBefore/],
    ] as const) {
      const res = await t.call(READER, { method: 'GET', url: `/api/organizations/${org.id}/certificates?${query}` });
      expect(res.statusCode, query).toBe(400);
      expect(JSON.stringify(res.json()), query).toMatch(words);
    }
    const res = await t.call(READER, { method: 'GET', url: `/api/licenses?status=revoked` });
    expect(res.statusCode).toBe(400);
    const after = await t.db.selectFrom('audit_records').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });

  it('exports exactly the filtered rows as CSV', async () => {
    const { org, made } = await customerWithCertificates();
    const res = await t.call(READER, { method: 'GET', url: `/api/organizations/${org.id}/certificates.csv?status=approved,expired` });
    expect(res.statusCode).toBe(200);
    const rows = parse(res.body.replace(/^\uFEFF/, ''), { columns: true }) as Array<Record<string, string>>;
    expect(rows.map((r) => r.distinguished_name).sort()).toEqual([made.expired, made.acknowledged].sort());
    expect(rows.every((r) => r.approval === 'APPROVED' && r.expired === 'true')).toBe(true);
  });

  it('keeps one organization\'s filters to what the caller may read', async () => {
    const foreign: Org = await make.organization({ parent: w.partner });
    const outsider = await make.member(await make.organization({ parent: w.partner }), { role: 'ADMINISTRATOR' });
    const res = await t.call(outsider.email, { method: 'GET', url: `/api/organizations/${foreign.id}/certificates?status=approved&expiringWithin=30` });
    expect(res.statusCode).toBe(404);
  });
});
