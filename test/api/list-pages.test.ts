/**
 * List pages and their totals are kept per instance (http/kept-answers.ts), yet every
 * answer is what the rows say at that instant: after any write, whoever makes it (also outside the
 * portal), and at the very instant a field or a filter that reads the clock changes. Each total is
 * compared with a count of the rows themselves, each page with the rows, on both engines.
 */
import { randomUUID } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { DAY } from '../../common/dates';
import { testDialects } from '../support/databases';
import { useTestApp } from '../support/test-app';
import { factories, type Cooperation } from '../support/factories';

const dialects = await testDialects();

describe.each(dialects)('list pages and totals on %s', (dialect) => {
  const t = useTestApp(dialect, { demo: false });
  const make = factories(t);
  /** The supervisor reads; each test writes to a customer of its own (certificates, licenses, members). */
  let w: Cooperation;
  let SUPERVISOR: string;
  beforeAll(async () => {
    w = await make.cooperation();
    SUPERVISOR = w.supervisor.email;
  });
  /** A customer of the partner with an issuer, a member, certificates and licenses in several states. */
  async function customer() {
    const org = await make.organization({ parent: w.partner });
    const issuer = await make.member(org, { role: 'ISSUER' });
    await make.member(org);
    for (const state of ['approved', 'requested', 'expired'] as const) await make.certificate(org, state);
    await make.certificate(org, 'approved', { to: 3 });
    for (const state of ['approved', 'requested', 'renewable', 'expired'] as const) await make.license(org, state);
    return { org, issuer };
  }
  const total = async (url: string) => {
    const res = await t.call(SUPERVISOR, { method: 'GET', url });
    expect(res.statusCode).toBe(200);
    return Number(res.headers['x-total-count']);
  };
  const countRows = async (table: 'certificates' | 'licenses' | 'members' | 'organizations', organizationId?: string) => {
    let q = t.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n'));
    if (organizationId) q = q.where('organization_id', '=', organizationId);
    return Number((await q.executeTakeFirstOrThrow()).n);
  };

  it('follows writes made outside the portal at the next call, in every list', async () => {
    const { org } = await customer();
    const certificates = `/api/organizations/${org.id}/certificates`;
    const lists = [
      [certificates, () => countRows('certificates', org.id)],
      ['/api/certificates', () => countRows('certificates')],
      ['/api/licenses', () => countRows('licenses')],
      [`/api/organizations/${org.id}/members`, () => countRows('members', org.id)],
      ['/api/organizations', () => countRows('organizations')],
    ] as const;
    const before = [];
    for (const [url, rows] of lists) {
      const counted = await rows();
      expect(await total(url)).toBe(counted); // counted, then kept
      before.push(counted);
    }
    const [certificate] = await t.db.selectFrom('certificates').selectAll().where('organization_id', '=', org.id).execute();
    const [license] = await t.db.selectFrom('licenses').selectAll().where('organization_id', '=', org.id).execute();
    const [member] = await t.db.selectFrom('members').selectAll().where('organization_id', '=', org.id).execute();
    await t.db.deleteFrom('certificates').where('distinguished_name', '=', certificate.distinguished_name).execute();
    await t.db.deleteFrom('licenses').where('license_id', '=', license.license_id).execute();
    await t.db.updateTable('members').set({ organization_id: w.partner.id }).where('member_id', '=', member.member_id).execute();
    await t.db.insertInto('organizations').values({
      organization_id: randomUUID(), organization_name: `Counted Later ${randomUUID()}`, organization_role: 'CUSTOMER',
      parent_organization_id: w.partner.id, website: null, logo_url: null, address: null, ban_note: null,
      date_organization_banned: null, date_created: t.clock.now().toISOString(),
    }).execute();
    for (const [i, [url, rows]] of lists.entries()) {
      const counted = await rows();
      expect(counted, url).not.toBe(before[i]);
      expect(await total(url)).toBe(counted);
    }
  });

  it('changes a total that reads the clock at the instant a certificate expires', async () => {
    const { org } = await customer();
    const url = `/api/organizations/${org.id}/certificates?hideExpired=true`;
    const live = async () => {
      const at = t.clock.now().toISOString();
      return Number((await t.db.selectFrom('certificates').select((eb) => eb.fn.countAll<number>().as('n'))
        .where('organization_id', '=', org.id).where('date_not_after', '>', at).executeTakeFirstOrThrow()).n);
    };
    const next = await t.db.selectFrom('certificates').select('date_not_after').where('organization_id', '=', org.id)
      .where('date_not_after', '>', t.clock.now().toISOString()).orderBy('date_not_after').executeTakeFirstOrThrow();
    const before = await total(url);
    expect(before).toBe(await live());
    t.clock.set(new Date(Date.parse(next.date_not_after) - 1));
    expect(await total(url)).toBe(before);
    t.clock.set(next.date_not_after);
    expect(await total(url)).toBe(await live());
    expect(await total(url)).toBeLessThan(before);
  });

  const page = async <T>(url: string, as = SUPERVISOR): Promise<T[]> => {
    const res = await t.call(as, { method: 'GET', url });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    return res.json();
  };

  it('shows a write made outside the portal in the rows of every kept page at the next call', async () => {
    type Named = { description?: string; license_name?: string; name?: string; organization_name?: string };
    const { org } = await customer();
    const [certificate] = await t.db.selectFrom('certificates').selectAll().where('organization_id', '=', org.id).orderBy('dn_search').limit(1).execute();
    const [license] = await t.db.selectFrom('licenses').selectAll().where('organization_id', '=', org.id).orderBy('name_search').limit(1).execute();
    const [member] = await t.db.selectFrom('members').selectAll().where('organization_id', '=', org.id).orderBy('name').limit(1).execute();
    const lists: Array<[string, (rows: Named[]) => unknown, () => Promise<unknown>]> = [
      [`/api/organizations/${org.id}/certificates`, (rows) => rows[0].description, () => t.db.updateTable('certificates').set({ description: 'changed outside' }).where('distinguished_name', '=', certificate.distinguished_name).execute()],
      [`/api/organizations/${org.id}/licenses`, (rows) => rows[0].license_name, () => t.db.updateTable('licenses').set({ license_name: `${license.license_name} changed` }).where('license_id', '=', license.license_id).execute()],
      [`/api/organizations/${org.id}/members`, (rows) => rows[0].name, () => t.db.updateTable('members').set({ name: `${member.name} changed` }).where('member_id', '=', member.member_id).execute()],
      [`/api/organizations?filter=${encodeURIComponent(org.name)}`, (rows) => rows[0].organization_name, () => t.db.updateTable('organizations').set({ website: 'https://changed.example' }).where('organization_id', '=', org.id).execute()],
    ];
    for (const [url, read, write] of lists) {
      const before = read(await page<Named>(url));
      expect(read(await page<Named>(url)), url).toEqual(before); // kept
      await write();
      const after = await page<Named & { website?: string }>(url);
      if (url.startsWith('/api/organizations?')) expect(after[0].website, url).toBe('https://changed.example');
      else expect(read(after), url).toMatch(/changed/);
    }
  });

  it('drops a row from a kept hide-expired page at the instant it expires', async () => {
    const { org } = await customer();
    const url = `/api/organizations/${org.id}/certificates?hideExpired=true&limit=1000`;
    const next = await t.db.selectFrom('certificates').select(['distinguished_name', 'date_not_after']).where('organization_id', '=', org.id)
      .where('date_not_after', '>', t.clock.now().toISOString()).orderBy('date_not_after').executeTakeFirstOrThrow();
    const start = t.clock.now();
    const dns = async () => (await page<{ distinguished_name: string }>(url)).map((c) => c.distinguished_name);
    t.clock.set(new Date(Date.parse(next.date_not_after) - 1));
    expect(await dns()).toContain(next.distinguished_name);
    expect(await dns()).toContain(next.distinguished_name);
    t.clock.set(next.date_not_after);
    expect(await dns()).not.toContain(next.distinguished_name);
    t.clock.set(start);
  });

  it('answers the days left of the calling instant from a kept license page', async () => {
    const { org } = await customer();
    const url = `/api/organizations/${org.id}/licenses`;
    const start = t.clock.now().getTime();
    const days = async () => Object.fromEntries((await page<{ license_id: string; days_left: number }>(url)).map((l) => [l.license_id, l.days_left]));
    const before = await days();
    expect(Object.keys(before).length).toBeGreaterThan(0);
    expect(await days()).toEqual(before);
    t.clock.set(new Date(start + DAY));
    const after = await days();
    for (const [id, left] of Object.entries(before)) expect(after[id], id).toBe(left > 0 ? left - 1 || -1 : left - 1);
    t.clock.set(new Date(start));
    expect(await days()).toEqual(before);
  });

  it('keeps pages apart for callers who may read different organizations', async () => {
    const { org, issuer } = await customer();
    await make.certificate(w.customer, 'approved');
    const all = await page<{ organization_id: string }>('/api/certificates?limit=1000');
    const own = await page<{ organization_id: string }>('/api/certificates?limit=1000', issuer.email);
    expect(new Set(all.map((c) => c.organization_id)).size).toBeGreaterThan(1);
    expect(new Set(own.map((c) => c.organization_id))).toEqual(new Set([org.id]));
  });

  it('shows a new journal record on a kept journal page at the next call, filtered or not', async () => {
    const { org } = await customer();
    await make.journal(org);
    const urls = [`/api/organizations/${org.id}/auditrecords`, `/api/organizations/${org.id}/auditrecords?filter=kept-page-marker`];
    const before = await Promise.all(urls.map((url) => t.call(SUPERVISOR, { method: 'GET', url })));
    for (const url of urls) await t.call(SUPERVISOR, { method: 'GET', url }); // kept
    // Written past the portal's audit path, as another program would: the database's trigger moves the organization's version.
    await t.db.insertInto('audit_records')
      .values({ reason: 'ORGANIZATION_SAVED', message: 'kept-page-marker written after the page was kept', organization_id: org.id, member_email: null, date_created: t.clock.now().toISOString() })
      .execute();
    for (const [i, url] of urls.entries()) {
      const res = await t.call(SUPERVISOR, { method: 'GET', url });
      expect(res.statusCode).toBe(200);
      expect(Number(res.headers['x-total-count']), url).toBe(Number(before[i].headers['x-total-count']) + 1);
      expect(res.json()[0].message, url).toBe('kept-page-marker written after the page was kept');
    }
  });

  it('sends a page gzipped to a client that accepts it (the same JSON), and as it is to one that does not', async () => {
    const org = await make.organization({ parent: w.partner });
    for (let i = 0; i < 8; i++) await make.certificate(org, i % 2 ? 'approved' : 'requested');
    const get = (url: string, acceptEncoding?: string) =>
      t.call(SUPERVISOR, { method: 'GET', url, headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {} });
    for (const url of [`/api/organizations/${org.id}/certificates`, '/api/approve']) {
      const plain = await get(url);
      expect(plain.statusCode).toBe(200);
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.headers.vary).toBe('Accept-Encoding');
      for (const accepted of ['gzip, deflate, br, zstd', 'br;q=1, gzip;q=0.5']) {
        const zipped = await get(url, accepted);
        expect(zipped.headers['content-encoding']).toBe('gzip');
        expect(zipped.headers.vary).toBe('Accept-Encoding');
        expect(zipped.headers['x-total-count']).toBe(plain.headers['x-total-count']);
        expect(Number(zipped.headers['content-length'])).toBeLessThan(plain.rawPayload.length);
        expect(gunzipSync(zipped.rawPayload).toString('utf8')).toBe(plain.body);
      }
      // Kept gzipped, a found answer goes as JSON to a client that takes no gzip.
      for (const refused of ['gzip;q=0', 'identity', 'br']) {
        const again = await get(url, refused);
        expect(again.headers['content-encoding']).toBeUndefined();
        expect(again.body).toBe(plain.body);
      }
    }
    // A page under a kilobyte goes as it is: compressing it would save less than it costs.
    const small = await get(`/api/organizations/${(await make.organization({ parent: w.partner })).id}/certificates`, 'gzip');
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.headers.vary).toBeUndefined();
  });
});
