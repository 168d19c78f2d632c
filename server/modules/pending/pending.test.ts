/**
 * GET /api/approve and GET /api/acknowledge paged (issue 10): true totals beyond 1,000 rows, pages
 * in a total order that neither overlap nor skip, the first page for callers without parameters,
 * refused parameters, and only the caller's organizations, in rows and totals alike.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Insertable } from 'kysely';
import type { CertificatesTable, LicensesTable } from '../../db/schema';
import type { Pending } from '../../../common/schemas/pending';
import { testDialects } from '../../../test/support/databases';
import { listPendingLicenses } from '../licenses/repository';
import { licensePage, toLicense } from '../licenses/service';
import { useTestApp } from '../../../test/support/test-app';
import { factories, type Cooperation } from '../../../test/support/factories';

const dialects = await testDialects();
const DAY = 86_400_000;

const MANY = 1_101;

type Kind = 'approve' | 'acknowledge';

describe.each(dialects)('pending tasks on %s', (dialect) => {
  const t = useTestApp(dialect, { demo: false });
  const make = factories(t);
  /**
   * The factories' cooperation: its operator's supervisor reads everything, the partner's
   * administrator the partner's customers (its own and the paging one made here), the customer's
   * issuer only the customer's few tasks.
   */
  let w: Cooperation;
  let SUPERVISOR: string;
  let ADMIN_N: string;
  let ISSUER_C: string;
  let orgId: string;
  const iso = (ms: number) => new Date(ms).toISOString();

  async function get(as: string, kind: Kind, query = ''): Promise<Pending> {
    const res = await t.call(as, { method: 'GET', url: `/api/${kind}${query}` });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  }

  /** Every row of both lists, walked page by page. */
  async function walk(as: string, kind: Kind, limit: number) {
    const certificates: string[] = [];
    const licenses: string[] = [];
    let totals = { certificates: -1, licenses: -1 };
    for (let offset = 0; ; offset += limit) {
      const page = await get(as, kind, `?certificatesOffset=${offset}&licensesOffset=${offset}&limit=${limit}`);
      if (totals.certificates >= 0) expect({ certificates: page.certificates_total, licenses: page.licenses_total }).toEqual(totals);
      totals = { certificates: page.certificates_total, licenses: page.licenses_total };
      expect(page.certificates.length).toBe(Math.max(0, Math.min(limit, totals.certificates - offset)));
      expect(page.licenses.length).toBe(Math.max(0, Math.min(limit, totals.licenses - offset)));
      certificates.push(...page.certificates.map((c) => c.distinguished_name));
      licenses.push(...page.licenses.map((l) => l.license_id));
      if (page.certificates.length === 0 && page.licenses.length === 0) break;
    }
    return { certificates, licenses, totals };
  }

  beforeAll(async () => {
    w = await make.cooperation();
    [SUPERVISOR, ADMIN_N, ISSUER_C] = [w.supervisor.email, w.partnerAdmin.email, w.issuer.email];
    // The customer's few tasks: a certificate and a license waiting for approval, and one of each expired.
    for (const state of ['requested', 'expired'] as const) {
      await make.certificate(w.customer, state);
      await make.license(w.customer, state);
    }
    // A customer of the partner with more than 1,000 of each task: written straight into the tables,
    // as an import would, because 4,400 uploads and requests through the API would take minutes.
    orgId = (await make.organization({ parent: w.partner, name: `Paging Customer ${randomUUID().slice(0, 8)}` })).id;
    const now = t.clock.now().getTime();
    const certificates: Insertable<CertificatesTable>[] = [];
    const licenses: Insertable<LicensesTable>[] = [];
    for (let i = 0; i < MANY; i++) {
      // Ten rows share each date, so only the key after it orders them.
      const created = now - 300 * DAY + Math.floor(i / 10) * 60_000;
      const expired = now - 200 * DAY + Math.floor(i / 10) * 60_000;
      const certificate = (dn: string, waits: 'approval' | 'acknowledgement'): Insertable<CertificatesTable> => ({
        distinguished_name: dn, dn_search: dn.toLowerCase(), organization_id: orgId, description: '', owner_member_id: null, approver_member_id: null,
        date_not_before: iso(now - 400 * DAY), date_not_after: waits === 'approval' ? iso(now + 300 * DAY) : iso(expired),
        date_approved: waits === 'approval' ? null : iso(created + DAY), date_revoked: null, date_expiry_acknowledged: null, date_created: iso(created),
        certificate_pem: 'not read by the lists', serial_number: String(i), signature: '00', signature_algorithm: 'ecdsa-with-SHA256', version: 3,
      });
      // Keys in an order unlike the insertion order.
      const tag = String((i * 7919) % MANY).padStart(5, '0');
      certificates.push(certificate(`CN=wait-${tag}.paging.example`, 'approval'), certificate(`CN=expired-${tag}.paging.example`, 'acknowledgement'));
      const license = (name: string, waits: 'approval' | 'acknowledgement'): Insertable<LicensesTable> => ({
        license_id: randomUUID(), license_name: name, name_search: name.toLowerCase(), license_scope: 'LAB', organization_id: orgId,
        date_valid_from: waits === 'approval' ? iso(now) : iso(expired - 20 * DAY), days_valid: 20, date_valid_until: waits === 'approval' ? iso(now + 20 * DAY) : iso(expired),
        note: null, date_approved: waits === 'approval' ? null : iso(created + DAY), date_rejected: null, date_expiry_acknowledged: null,
        approver_member_id: null, extended_by_license_id: null, version: waits === 'approval' ? 1 : 2, date_created: iso(created),
      });
      licenses.push(license(`Paging request ${tag}`, 'approval'), license(`Paging expired ${tag}`, 'acknowledgement'));
    }
    for (let i = 0; i < certificates.length; i += 500) await t.db.insertInto('certificates').values(certificates.slice(i, i + 500)).execute();
    for (let i = 0; i < licenses.length; i += 500) await t.db.insertInto('licenses').values(licenses.slice(i, i + 500)).execute();
  });

  for (const kind of ['approve', 'acknowledge'] as const) {
    it(`${kind}: true totals beyond 1,000, and pages that neither overlap nor skip, in a total order`, async () => {
      const all = await walk(SUPERVISOR, kind, 1000);
      expect(all.totals.certificates).toBeGreaterThanOrEqual(MANY);
      expect(all.totals.licenses).toBeGreaterThanOrEqual(MANY);
      expect(all.certificates.length).toBe(all.totals.certificates);
      expect(all.licenses.length).toBe(all.totals.licenses);
      expect(new Set(all.certificates).size).toBe(all.certificates.length);
      expect(new Set(all.licenses).size).toBe(all.licenses.length);

      // Pages of another size walk the same rows in the same order.
      const byHundred = await walk(SUPERVISOR, kind, 100);
      expect(byHundred.certificates).toEqual(all.certificates);
      expect(byHundred.licenses).toEqual(all.licenses);
      const uneven = await walk(SUPERVISOR, kind, 333);
      expect(uneven.certificates).toEqual(all.certificates);
      expect(uneven.licenses).toEqual(all.licenses);
    });
  }

  it('orders approvals by creation and acknowledgements by the end of validity, then by the key', async () => {
    const approvals = await get(SUPERVISOR, 'approve', '?limit=1000');
    const sorted = <T>(rows: T[], key: (row: T) => string) => [...rows].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
    const created = (c: { date_created: string; distinguished_name: string }) => `${c.date_created} ${c.distinguished_name}`;
    expect(approvals.certificates).toEqual(sorted(approvals.certificates, created));
    const licenseCreated = (l: { date_created: string; license_id: string }) => `${l.date_created} ${l.license_id}`;
    expect(approvals.licenses).toEqual(sorted(approvals.licenses, licenseCreated));

    const acknowledgements = await get(SUPERVISOR, 'acknowledge', '?limit=1000');
    const ended = (c: { date_not_after: string; distinguished_name: string }) => `${c.date_not_after} ${c.distinguished_name}`;
    expect(acknowledgements.certificates).toEqual(sorted(acknowledgements.certificates, ended));
    const licenseEnded = (l: { date_valid_until: string; license_id: string }) => `${l.date_valid_until} ${l.license_id}`;
    expect(acknowledgements.licenses).toEqual(sorted(acknowledgements.licenses, licenseEnded));
  });

  it('gives callers without parameters the first 100 of each list with the totals, in the old shape', async () => {
    for (const kind of ['approve', 'acknowledge'] as const) {
      const plain = await get(SUPERVISOR, kind);
      expect(Object.keys(plain).sort()).toEqual(['certificates', 'certificates_total', 'licenses', 'licenses_total']);
      expect(plain.certificates).toHaveLength(100);
      expect(plain.licenses).toHaveLength(100);
      const explicit = await get(SUPERVISOR, kind, '?certificatesOffset=0&licensesOffset=0&limit=100');
      expect(plain).toEqual(explicit);
      expect(plain.certificates[0]).toMatchObject({ distinguished_name: expect.any(String), organization_name: expect.any(String), owner: null });
      expect(plain.licenses[0]).toMatchObject({ license_id: expect.any(String), days_left: expect.any(Number), version: expect.any(Number) });
    }
  });

  it('pages each list on its own', async () => {
    const first = await get(SUPERVISOR, 'approve', '?limit=10');
    const later = await get(SUPERVISOR, 'approve', '?certificatesOffset=10&limit=10');
    expect(later.licenses).toEqual(first.licenses);
    expect(later.certificates.map((c) => c.distinguished_name)).not.toContain(first.certificates[0].distinguished_name);
    const past = await get(SUPERVISOR, 'approve', `?licensesOffset=${first.licenses_total}`);
    expect(past.licenses).toEqual([]);
    expect(past.licenses_total).toBe(first.licenses_total);
  });

  it('counts and lists only the organizations where the caller has a role', async () => {
    for (const kind of ['approve', 'acknowledge'] as const) {
      const northwind = await walk(ADMIN_N, kind, 1000);
      expect(northwind.certificates.filter((dn) => dn.endsWith('.paging.example'))).toHaveLength(MANY);
      const contoso = await get(ISSUER_C, kind, '?limit=1000');
      expect(contoso.certificates.length).toBeGreaterThan(0);
      expect(contoso.licenses.length).toBeGreaterThan(0);
      expect(contoso.certificates.every((c) => c.organization_id === w.customer.id)).toBe(true);
      expect(contoso.licenses.every((l) => l.organization_id === w.customer.id)).toBe(true);
      // Contoso's own are few, so one page holds them all and the totals are theirs alone.
      expect(contoso.certificates_total).toBe(contoso.certificates.length);
      expect(contoso.licenses_total).toBe(contoso.licenses.length);
      const supervisor = await get(SUPERVISOR, kind, '?limit=1');
      expect(supervisor.certificates_total).toBeGreaterThanOrEqual(northwind.totals.certificates);
      expect(northwind.totals.certificates).toBeGreaterThan(contoso.certificates_total);
    }
  });

  it('counts an expired license whose renewal was rejected, not one whose renewal waits', async () => {
    // Two expired licenses of a customer of its own: one renewed, one renewed and the renewal rejected.
    const customer = await make.organization({ parent: w.partner });
    const expired = [await make.license(customer, 'expired'), await make.license(customer, 'expired')].map((l) => ({ license_id: l.id, version: l.version }));
    const before = await get(SUPERVISOR, 'acknowledge', '?limit=1');
    const renew = (id: string, version: number) => t.call(SUPERVISOR, { method: 'POST', url: `/api/licenses/${id}/renew?version=${version}` });
    const waiting = await renew(expired[0].license_id, expired[0].version);
    expect(waiting.statusCode, waiting.body).toBe(201);
    const rejected = await renew(expired[1].license_id, expired[1].version);
    expect(rejected.statusCode, rejected.body).toBe(201);
    const successor = rejected.json();
    expect((await t.call(SUPERVISOR, { method: 'POST', url: `/api/licenses/${successor.license_id}/reject?version=${successor.version}` })).statusCode).toBe(200);

    const after = await walk(SUPERVISOR, 'acknowledge', 1000);
    expect(after.totals.licenses).toBe(before.licenses_total - 1);
    expect(after.licenses).not.toContain(expired[0].license_id);
    expect(after.licenses).toContain(expired[1].license_id);
  });

  it('answers kept pages only while nothing changed: a write by anyone, or the next expiry, is seen at once', async () => {
    const total = async () => (await get(SUPERVISOR, 'acknowledge', '?limit=5')).certificates_total;
    const before = await total();
    expect(await total()).toBe(before);
    // Written outside the portal (an import, psql): approved, expiring in a minute, in a customer of its own.
    const own = await make.organization({ parent: w.partner });
    const dn = `CN=expiring-${own.id}.paging.example`;
    const now = t.clock.now().getTime();
    await t.db
      .insertInto('certificates')
      .values({
        distinguished_name: dn, dn_search: dn.toLowerCase(), organization_id: own.id, description: '', owner_member_id: null, approver_member_id: null,
        date_not_before: iso(now - DAY), date_not_after: iso(now + 60_000), date_approved: iso(now - DAY), date_revoked: null, date_expiry_acknowledged: null,
        date_created: iso(now - DAY), certificate_pem: 'not read by the lists', serial_number: 'x', signature: '00', signature_algorithm: 'ecdsa-with-SHA256', version: 3,
      })
      .execute();
    expect(await total()).toBe(before);
    t.clock.set(new Date(now + 60_000 - 1));
    expect(await total()).toBe(before);
    // At its end of validity it waits, without any write.
    t.clock.set(new Date(now + 60_000));
    expect(await total()).toBe(before + 1);
    const last = await get(SUPERVISOR, 'acknowledge', `?certificatesOffset=${before}&limit=5`);
    expect(last.certificates.map((c) => c.distinguished_name)).toEqual([dn]);
    // Acknowledged outside the portal: gone at the next call.
    await t.db.updateTable('certificates').set({ date_expiry_acknowledged: iso(now + 60_000) }).where('distinguished_name', '=', dn).execute();
    expect(await total()).toBe(before);
    // The clock set back gets the page of that instant, not the later one.
    await t.db.updateTable('certificates').set({ date_expiry_acknowledged: null }).where('distinguished_name', '=', dn).execute();
    expect(await total()).toBe(before + 1);
    t.clock.set(new Date(now));
    expect(await total()).toBe(before);
    await t.db.deleteFrom('certificates').where('distinguished_name', '=', dn).execute();
  });

  it('keeps the approvals over every organization only until a write in any of them', async () => {
    const total = async () => (await get(SUPERVISOR, 'approve', '?limit=5')).certificates_total;
    const before = await total();
    expect(await total()).toBe(before);
    // Waiting in a customer of its own, written outside the portal: seen at the next call.
    const own = await make.organization({ parent: w.partner });
    const { dn } = await make.certificate(own, 'requested');
    expect(await total()).toBe(before + 1);
    await t.db.updateTable('certificates').set({ date_approved: t.clock.now().toISOString() }).where('distinguished_name', '=', dn).execute();
    expect(await total()).toBe(before);
  });

  it('keeps a license page\'s JSON until the first instant a row\'s days left change, and no longer', async () => {
    const base = t.clock.now().getTime();
    const { rows } = await listPendingLicenses(t.db, 'all', 'acknowledgement', new Date(base), { offset: 0, limit: 50 });
    expect(rows.length).toBe(50);
    const until = Date.parse(rows[0].date_valid_until);
    // Around the day edges of one row, and instants at which no row's days left change.
    const instants = [base, base + 1, base + 3_600_000, base + DAY - 1, base + DAY, base + 10 * DAY + 123, until + DAY - 1, until + DAY, until + DAY + 1, until + 2 * DAY];
    for (const ms of instants) {
      const when = new Date(ms);
      const page = licensePage(rows, rows.length, when, () => []);
      const json = (at: Date) => JSON.parse(licensePage(rows, rows.length, at, () => []).json.toString('utf8'));
      // The bytes say what the rows say at that instant, hold until changesAt, and differ there.
      expect(JSON.parse(page.json.toString('utf8')), when.toISOString()).toEqual(rows.map((row) => toLicense(row, when, [])));
      expect(page.changesAt).toBeGreaterThan(ms);
      expect(json(new Date(page.changesAt! - 1)), when.toISOString()).toEqual(JSON.parse(page.json.toString('utf8')));
      expect(json(new Date(page.changesAt!)), when.toISOString()).not.toEqual(JSON.parse(page.json.toString('utf8')));
    }
  });

  it('answers the days left of the calling instant from a kept page', async () => {
    const start = t.clock.now().getTime();
    const daysOf = async () => Object.fromEntries((await get(SUPERVISOR, 'approve', '?limit=1000')).licenses.map((l) => [l.license_id, l.days_left]));
    const before = await daysOf();
    expect(await daysOf()).toEqual(before);
    t.clock.set(new Date(start + DAY));
    const after = await daysOf();
    for (const [id, days] of Object.entries(before)) expect(after[id], id).toBe(days - 1);
    t.clock.set(new Date(start));
    expect(await daysOf()).toEqual(before);
  });

  it('refuses bad parameters with a 400 naming the parameter, and changes nothing', async () => {
    const journal = async () => Number((await t.db.selectFrom('audit_records').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    const before = await journal();
    const cases: Array<[string, string, RegExp]> = [
      ['limit=0', 'limit', /from 1 to 1000/],
      ['limit=1001', 'limit', /from 1 to 1000/],
      ['limit=-5', 'limit', /from 1 to 1000/],
      ['limit=1.5', 'limit', /from 1 to 1000/],
      ['limit=abc', 'limit', /from 1 to 1000/],
      ['limit=', 'limit', /from 1 to 1000/],
      ['limit=0x10', 'limit', /from 1 to 1000/],
      ['limit=10&limit=20', 'limit', /./],
      ['certificatesOffset=-1', 'certificatesOffset', /whole number of 0 or more/],
      ['certificatesOffset=', 'certificatesOffset', /whole number of 0 or more/],
      ['certificatesOffset=1e3', 'certificatesOffset', /whole number of 0 or more/],
      ['licensesOffset=%2010', 'licensesOffset', /whole number of 0 or more/],
      ['licensesOffset=9999999999999999', 'licensesOffset', /whole number of 0 or more/],
      ['offset=100', 'offset', /Unknown field 'offset'/],
    ];
    for (const kind of ['approve', 'acknowledge'] as const) {
      for (const [query, field, message] of cases) {
        const res = await t.call(SUPERVISOR, { method: 'GET', url: `/api/${kind}?${query}` });
        expect(res.statusCode, `${kind}?${query}: ${res.body}`).toBe(400);
        expect(res.json(), `${kind}?${query}`).toMatchObject({ field, severity: 'ERROR', message: expect.stringMatching(message) });
        expect(res.json().message, `${kind}?${query}`).toContain(field);
      }
    }
    expect(await journal()).toBe(before);
  });

  it('describes the parameters and the totals in the OpenAPI document', async () => {
    const doc = (await t.app.inject('/api/docs/json')).json();
    for (const path of ['/api/approve', '/api/acknowledge']) {
      const op = doc.paths[path].get;
      expect(op.parameters.map((p: { name: string }) => p.name).sort()).toEqual(['certificatesOffset', 'certificatesSort', 'licensesOffset', 'licensesSort', 'limit']);
      const body = op.responses['200'].content['application/json'].schema;
      expect(Object.keys(body.properties).sort()).toEqual(['certificates', 'certificates_total', 'licenses', 'licenses_total']);
    }
  });
});
