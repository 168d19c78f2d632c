/**
 * Sorted lists (issue 12, docs/decisions.md "Sorting"): `sort=<field>` ascending and `sort=-<field>`
 * descending on every list, on both engines. Each test builds its rows with distinct and equal
 * values, so ties must go by the row's key; each order is compared with the rows sorted here, read
 * in pages of a few rows (every row exactly once), both directions, for one organization's list, the
 * admin list of every organization (the operator's supervisor) and of some (a partner's administrator).
 * A field a list does not sort by is a 400 naming the parameter, and the lists answer as before.
 */
import { describe, expect, it } from 'vitest';
import { licenseValidUntil } from '../../common/zones';
import { audit } from '../../server/db/audit';
import { insertCertificate } from '../../server/modules/certificates/repository';
import { parseCertificatePem } from '../../server/modules/certificates/x509';
import { insertLicense } from '../../server/modules/licenses/repository';
import { insertResource } from '../../server/modules/resources/repository';
import { makeCertificate } from '../../scripts/make-certificate';
import { testDialects } from '../support/databases';
import { factories, uniqueTag, type Org } from '../support/factories';
import { useTestApp } from '../support/test-app';

const dialects = await testDialects();

type Row = Record<string, unknown>;
/** One value of a row's order: text compared by code unit (ASCII here: the same as both engines' byte order). */
type Key = (row: Row) => string[];

function compare(a: string[], b: string[]): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
  return 0;
}

/** The rows in the order of `sort` (a leading - reverses the whole order, key included). */
function sorted(rows: Row[], keys: Record<string, Key>, sort: string): Row[] {
  const descending = sort.startsWith('-');
  const key = keys[descending ? sort.slice(1) : sort];
  const ordered = [...rows].sort((a, b) => compare(key(a), key(b)));
  for (let i = 1; i < ordered.length; i++) expect(compare(key(ordered[i - 1]), key(ordered[i])), `the key of ${sort} is unique`).not.toBe(0);
  return descending ? ordered.reverse() : ordered;
}

const iso = (day: string) => `${day}T00:00:00.000Z`;

describe.each(dialects)('sorted lists on %s', (dialect) => {
  const t = useTestApp(dialect, { demo: false });
  const make = factories(t);
  let world: Awaited<ReturnType<typeof build>>;

  /** An operator with its supervisor, a partner with its administrator, two customers of the partner and one of the operator. */
  async function build() {
    const tag = uniqueTag();
    const operator = await make.organization({ role: 'OPERATOR', name: `Sort Operator ${tag}` });
    const partner = await make.organization({ role: 'PARTNER', parent: operator, name: `Sort Partner ${tag}` });
    const customerA = await make.organization({ parent: partner, name: `Sort Customer A ${tag}` });
    const customerB = await make.organization({ parent: partner, name: `Sort Customer B ${tag}` });
    const elsewhere = await make.organization({ parent: operator, name: `Sort Elsewhere ${tag}` });
    const supervisor = await make.member(operator, { role: 'SUPERVISOR', scope: 'COOPERATION', name: 'Zed Supervisor' });
    const partnerAdmin = await make.member(partner, { role: 'ADMINISTRATOR', scope: 'COOPERATION', name: 'Zed Partner' });
    const reader = await make.member(customerA, { role: 'MEMBER', name: 'Same Name', email: `same-a-${tag}@sort.example` });
    // Members with equal names (the email decides) and equal emails nowhere (unique).
    for (const [org, name, local] of [
      [customerA, 'Same Name', 'same-b'], [customerA, 'Same Name', 'same-0'], [customerA, 'Anna Lind', 'zz-anna'], [customerA, 'Bert Berg', 'aa-bert'],
      [customerB, 'Same Name', 'same-c'], [customerB, 'Anna Lind', 'anna'], [elsewhere, 'Anna Lind', 'anna-elsewhere'],
    ] as const) {
      await make.member(org, { name, email: `${local}-${tag}@sort.example` });
    }

    const template = parseCertificatePem((await makeCertificate({ subject: 'CN=sorting template', notBefore: new Date('2025-01-01'), notAfter: new Date('2028-01-01') })).pem);
    const notAfters = [iso('2026-01-10'), iso('2026-09-01'), iso('2027-02-01')];
    const notBefores = [iso('2025-01-01'), iso('2025-06-01'), iso('2025-03-01'), iso('2025-01-01')];
    const createdAt = [iso('2025-01-01'), iso('2024-12-01')];
    const certificates: Array<{ org: Org; dn: string }> = [];
    const addCertificates = async (org: Org, count: number, first: number) => {
      for (let i = first; i < first + count; i++) {
        // Pairs of DNs that differ in letter case only: the same dn_search, so the DN decides.
        const dn = `CN=${i % 2 ? 'NODE' : 'node'}-${Math.floor(i / 2)},O=Sort ${tag}`;
        const approved = i % 4 !== 0;
        await insertCertificate(t.db, {
          ...template, distinguished_name: dn, dn_search: dn.toLowerCase(), organization_id: org.id, description: `certificate ${i}`,
          owner_member_id: null, approver_member_id: null,
          date_not_before: notBefores[i % 4], date_not_after: notAfters[i % 3],
          date_approved: approved ? iso('2025-01-02') : null, date_revoked: null, date_expiry_acknowledged: null, date_created: createdAt[i % 2],
        });
        certificates.push({ org, dn });
      }
    };
    await addCertificates(customerA, 12, 0);
    await addCertificates(customerB, 6, 12);
    await addCertificates(elsewhere, 4, 18);

    const froms = [iso('2025-11-01'), iso('2026-02-01'), iso('2026-03-01')];
    const licenses: string[] = [];
    const addLicenses = async (org: Org, count: number, first: number) => {
      for (let i = first; i < first + count; i++) {
        const name = `${String.fromCharCode(65 + ((i * 7) % 26))}-license ${i} ${tag}`;
        const from = froms[i % 3];
        const days = i % 2 ? 30 : 60;
        const approved = i % 4 !== 0;
        await insertLicense(t.db, {
          license_id: `${tag}-license-${String(i).padStart(2, '0')}`, license_name: name, name_search: name.toLowerCase(), license_scope: 'LAB',
          organization_id: org.id, date_valid_from: from, days_valid: days, date_valid_until: licenseValidUntil(from, days), note: null,
          date_approved: approved ? iso('2025-10-01') : null, date_rejected: null, date_expiry_acknowledged: null, approver_member_id: null,
          extended_by_license_id: null, version: approved ? 2 : 1, date_created: createdAt[i % 2],
        });
        licenses.push(name);
      }
    };
    await addLicenses(customerA, 12, 0);
    await addLicenses(customerB, 6, 12);
    await addLicenses(elsewhere, 4, 18);

    // The journal of customer A, written at rising instants, some at the same one.
    for (let i = 0; i < 9; i++) {
      await audit(t.db, { reason: 'ORGANIZATION_SAVED', message: `Sorted record ${i}${i % 3 ? '' : ' (filtered)'}.`, organization_id: customerA.id, member_email: null, now: new Date(Date.parse(iso('2026-03-01')) + Math.floor(i / 2) * 60_000) });
    }

    // Resources with equal names (the ordinal decides).
    for (const [ordinal, name] of [[10, 'Images'], [11, 'Docs'], [12, 'Images'], [13, 'Apt'], [14, 'Docs']] as const) {
      await insertResource(t.db, {
        resource_id: `${tag}-resource-${ordinal}`, ordinal: 1000 + ordinal, resource_name: name, resource_type: 'STATIC_CONTENT', resource_access: 'PUBLIC',
        path_pattern: `/sort/${tag}/${ordinal}/**`, location: `/srv/sort/${tag}/${ordinal}`, description: null,
      });
    }
    return { operator, partner, customerA, customerB, elsewhere, supervisor, partnerAdmin, reader, certificates, licenses, tag };
  }

  const get = async (as: string, url: string) => {
    const res = await t.call(as, { method: 'GET', url });
    expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
    return res;
  };

  /** Every row of a list, read `limit` rows at a time; the pages together must be the total, each row once. */
  async function readAll(as: string, url: string, limit: number): Promise<Row[]> {
    const rows: Row[] = [];
    let total = Infinity;
    for (let offset = 0; offset < total; offset += limit) {
      const res = await get(as, `${url}${url.includes('?') ? '&' : '?'}offset=${offset}&limit=${limit}`);
      total = Number(res.headers['x-total-count']);
      const page = res.json() as Row[];
      expect(page.length).toBe(Math.min(limit, total - offset));
      rows.push(...page);
    }
    return rows;
  }

  /** Each sort both ways, in pages of 2 and 5 and whole: the rows of the sort, every one once. */
  async function checkSorts(as: string, url: string, keys: Record<string, Key>, id: (row: Row) => string) {
    const whole = await readAll(as, url, 1000);
    expect(new Set(whole.map(id)).size).toBe(whole.length);
    for (const column of Object.keys(keys)) {
      for (const sort of [column, `-${column}`]) {
        const expected = sorted(whole, keys, sort).map(id);
        const sortedUrl = `${url}${url.includes('?') ? '&' : '?'}sort=${encodeURIComponent(sort)}`;
        expect((await readAll(as, sortedUrl, 1000)).map(id), `${sortedUrl}`).toEqual(expected);
        for (const limit of [2, 5]) expect((await readAll(as, sortedUrl, limit)).map(id), `${sortedUrl} by ${limit}`).toEqual(expected);
      }
    }
    return whole;
  }

  const text = (field: string) => (row: Row) => String(row[field]);

  const certificateKeys = (organizations: boolean): Record<string, Key> => {
    const name = (r: Row) => [text('distinguished_name')(r).toLowerCase(), text('distinguished_name')(r)];
    const by = (field: string) => (r: Row) => [text(field)(r), text('distinguished_name')(r)];
    return {
      distinguished_name: name, date_not_before: by('date_not_before'), date_not_after: by('date_not_after'), date_created: by('date_created'),
      ...(organizations ? { organization_name: (r: Row) => [text('organization_name')(r), ...name(r)] } : {}),
    };
  };
  const licenseKeys = (organizations: boolean): Record<string, Key> => {
    const by = (field: string) => (r: Row) => [text(field)(r), text('license_id')(r)];
    return {
      license_name: (r) => [text('license_name')(r).toLowerCase()], date_valid_from: by('date_valid_from'), date_valid_until: by('date_valid_until'),
      date_created: by('date_created'),
      ...(organizations ? { organization_name: (r: Row) => [text('organization_name')(r), text('license_name')(r).toLowerCase()] } : {}),
    };
  };
  const memberKeys = (organizations: boolean): Record<string, Key> => ({
    name: (r) => [text('name')(r), text('member_email')(r)],
    member_email: (r) => [text('member_email')(r)],
    ...(organizations ? { organization_name: (r: Row) => [text('organization_name')(r), text('name')(r), text('member_email')(r)] } : {}),
  });

  it('sorts the certificates of an organization and across organizations, ties by the DN', async () => {
    world ??= await build();
    const w = world;
    const own = await checkSorts(w.reader.email, `/api/organizations/${w.customerA.id}/certificates`, certificateKeys(false), text('distinguished_name'));
    expect(own).toHaveLength(12);
    // Without sort: today's order (by name), the DN deciding between names equal but for case.
    expect(own.map(text('distinguished_name'))).toEqual(sorted(own, certificateKeys(false), 'distinguished_name').map(text('distinguished_name')));
    // The organization's own name is one for all rows: by organization is by name.
    expect((await readAll(w.reader.email, `/api/organizations/${w.customerA.id}/certificates?sort=-organization_name`, 5)).map(text('distinguished_name')))
      .toEqual(sorted(own, certificateKeys(false), '-distinguished_name').map(text('distinguished_name')));
    const all = await checkSorts(w.supervisor.email, '/api/certificates', certificateKeys(true), text('distinguished_name'));
    expect(all).toHaveLength(22);
    expect(all.map(text('distinguished_name'))).toEqual(sorted(all, certificateKeys(true), 'organization_name').map(text('distinguished_name')));
    const partners = await checkSorts(w.partnerAdmin.email, '/api/certificates', certificateKeys(true), text('distinguished_name'));
    expect(partners).toHaveLength(18);
    // Filters keep their meaning in any order: the unexpired ones by the end of validity, newest first.
    const live = all.filter((r) => text('date_not_after')(r) > t.clock.now().toISOString());
    expect((await readAll(w.supervisor.email, '/api/certificates?hideExpired=true&sort=-date_not_after', 3)).map(text('distinguished_name')))
      .toEqual(sorted(live, certificateKeys(true), '-date_not_after').map(text('distinguished_name')));
  });

  it('sorts the licenses of an organization and across organizations, ties by the license id', async () => {
    world ??= await build();
    const w = world;
    const own = await checkSorts(w.reader.email, `/api/organizations/${w.customerA.id}/licenses`, licenseKeys(false), text('license_id'));
    expect(own).toHaveLength(12);
    expect(own.map(text('license_id'))).toEqual(sorted(own, licenseKeys(false), 'license_name').map(text('license_id')));
    const all = await checkSorts(w.supervisor.email, '/api/licenses', licenseKeys(true), text('license_id'));
    expect(all).toHaveLength(22);
    expect(all.map(text('license_id'))).toEqual(sorted(all, licenseKeys(true), 'organization_name').map(text('license_id')));
    expect(await checkSorts(w.partnerAdmin.email, '/api/licenses', licenseKeys(true), text('license_id'))).toHaveLength(18);
  });

  it('sorts members by name, email and organization, ties by the email', async () => {
    world ??= await build();
    const w = world;
    const own = await checkSorts(w.reader.email, `/api/organizations/${w.customerA.id}/members`, memberKeys(false), text('member_id'));
    expect(own.map(text('member_id'))).toEqual(sorted(own, memberKeys(false), 'name').map(text('member_id')));
    const all = await checkSorts(w.supervisor.email, '/api/members', memberKeys(true), text('member_id'));
    expect(all.map(text('member_id'))).toEqual(sorted(all, memberKeys(true), 'name').map(text('member_id')));
    await checkSorts(w.partnerAdmin.email, '/api/members', memberKeys(true), text('member_id'));
  });

  it('sorts organizations by name both ways', async () => {
    world ??= await build();
    const all = await checkSorts(world.supervisor.email, '/api/organizations', { organization_name: (r) => [text('organization_name')(r)] }, text('organization_id'));
    expect(all.map(text('organization_id'))).toEqual(sorted(all, { organization_name: (r) => [text('organization_name')(r)] }, 'organization_name').map(text('organization_id')));
    expect(all.length).toBeGreaterThanOrEqual(5);
  });

  it('reads the journal oldest first and newest first, with and without a filter, by key', async () => {
    world ??= await build();
    const w = world;
    const url = `/api/organizations/${w.customerA.id}/auditrecords`;
    const newest = await readAll(w.reader.email, url, 1000);
    const ids = newest.map((r) => Number(r.record_id));
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    for (const limit of [2, 5, 1000]) {
      expect((await readAll(w.reader.email, `${url}?sort=-date_created`, limit)).map((r) => r.record_id)).toEqual(ids);
      const oldest = await readAll(w.reader.email, `${url}?sort=date_created`, limit);
      expect(oldest.map((r) => r.record_id)).toEqual([...ids].reverse());
      const times = oldest.map(text('date_created'));
      expect(times).toEqual([...times].sort());
      // The filtered journal in both directions: the same records either way round.
      const filtered = await readAll(w.reader.email, `${url}?filter=filtered&sort=date_created`, limit);
      expect(filtered.map((r) => r.record_id)).toEqual((await readAll(w.reader.email, `${url}?filter=filtered`, limit)).map((r) => r.record_id).reverse());
      expect(filtered).toHaveLength(3);
    }
  });

  it('sorts the resources by ordinal and by name, ties by the ordinal', async () => {
    world ??= await build();
    const w = world;
    const keys: Record<string, Key> = {
      ordinal: (r) => [String(r.ordinal).padStart(8, '0')],
      resource_name: (r) => [text('resource_name')(r), String(r.ordinal).padStart(8, '0')],
    };
    for (const url of ['/api/resources', `/api/organizations/${w.customerA.id}/resources`]) {
      const whole = (await get(w.supervisor.email, url)).json() as Row[];
      expect(whole.map((r) => r.ordinal)).toEqual(sorted(whole, keys, 'ordinal').map((r) => r.ordinal));
      for (const sort of ['ordinal', '-ordinal', 'resource_name', '-resource_name']) {
        const rows = (await get(w.supervisor.email, `${url}?sort=${sort}`)).json() as Row[];
        expect(rows.map((r) => r.resource_id), `${url}?sort=${sort}`).toEqual(sorted(whole, keys, sort).map((r) => r.resource_id));
      }
    }
  });

  it('sorts each pending list on its own, in pages, the other list staying in its order', async () => {
    world ??= await build();
    const w = world;
    type Pending = { certificates: Row[]; certificates_total: number; licenses: Row[]; licenses_total: number };
    const read = async (path: string, list: 'certificates' | 'licenses', sort: string | null, limit: number) => {
      const rows: Row[] = [];
      let total = Infinity;
      for (let offset = 0; offset < total; offset += limit) {
        const query = new URLSearchParams({ [`${list}Offset`]: String(offset), limit: String(limit) });
        if (sort) query.set(`${list}Sort`, sort);
        const body = (await get(w.supervisor.email, `${path}?${query}`)).json() as Pending;
        total = body[`${list}_total`];
        rows.push(...body[list]);
      }
      return rows;
    };
    const pendingKeys = { certificates: certificateKeys(false), licenses: licenseKeys(false) };
    const id = { certificates: text('distinguished_name'), licenses: text('license_id') };
    for (const [path, defaults] of [['/api/approve', { certificates: 'date_created', licenses: 'date_created' }], ['/api/acknowledge', { certificates: 'date_not_after', licenses: 'date_valid_until' }]] as const) {
      for (const list of ['certificates', 'licenses'] as const) {
        const whole = await read(path, list, null, 1000);
        expect(whole.length, `${path} ${list}`).toBeGreaterThanOrEqual(4);
        expect(whole.map(id[list])).toEqual(sorted(whole, pendingKeys[list], defaults[list]).map(id[list]));
        for (const column of Object.keys(pendingKeys[list])) {
          for (const sort of [column, `-${column}`]) {
            const expected = sorted(whole, pendingKeys[list], sort).map(id[list]);
            for (const limit of [2, 1000]) expect((await read(path, list, sort, limit)).map(id[list]), `${path} ${list}Sort=${sort} by ${limit}`).toEqual(expected);
          }
        }
      }
      // One list sorted, the other in its usual order.
      const both = (await get(w.supervisor.email, `${path}?certificatesSort=-distinguished_name`)).json() as Pending;
      expect(both.licenses.map(id.licenses)).toEqual((await read(path, 'licenses', null, 1000)).map(id.licenses));
    }
  });

  it('refuses a field a list does not sort by with a 400 naming the parameter, and answers as before after it', async () => {
    world ??= await build();
    const w = world;
    const lists = [
      [w.reader.email, `/api/organizations/${w.customerA.id}/certificates`, ['owner', 'description', '--date_not_after', 'date_not_after ', 'DATE_NOT_AFTER', '', '+date_created', 'license_name']],
      [w.supervisor.email, '/api/certificates', ['status', 'organization']],
      [w.reader.email, `/api/organizations/${w.customerA.id}/licenses`, ['days_left', 'distinguished_name']],
      [w.supervisor.email, '/api/licenses', ['license_scope']],
      [w.reader.email, `/api/organizations/${w.customerA.id}/members`, ['job_role', 'email']],
      [w.supervisor.email, '/api/members', ['member_id']],
      [w.supervisor.email, '/api/organizations', ['organization_role', 'name']],
      [w.reader.email, `/api/organizations/${w.customerA.id}/auditrecords`, ['record_id', 'reason', '-message']],
      [w.supervisor.email, '/api/resources', ['path_pattern']],
      [w.reader.email, `/api/organizations/${w.customerA.id}/resources`, ['name']],
    ] as const;
    for (const [as, url, bad] of lists) {
      const before = (await get(as, url)).body;
      for (const sort of bad) {
        const res = await t.call(as, { method: 'GET', url: `${url}?sort=${encodeURIComponent(sort)}` });
        expect(res.statusCode, `${url}?sort=${sort}`).toBe(400);
        expect(res.json()).toMatchObject({ field: 'sort', severity: 'ERROR' });
        expect(res.json().message).toContain('sort');
      }
      expect((await get(as, url)).body).toBe(before);
    }
    for (const [path, parameter, value] of [['/api/approve', 'certificatesSort', 'license_name'], ['/api/acknowledge', 'licensesSort', 'distinguished_name'], ['/api/approve', 'licensesSort', 'organization_name']]) {
      const before = (await get(w.supervisor.email, path)).body;
      const res = await t.call(w.supervisor.email, { method: 'GET', url: `${path}?${parameter}=${value}` });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ field: parameter });
      expect((await get(w.supervisor.email, path)).body).toBe(before);
    }
  });
});
