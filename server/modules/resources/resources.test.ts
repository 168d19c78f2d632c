import { beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '../../../test/support/databases';
import { useTestApp } from '../../../test/support/test-app';
import { factories, uniqueTag, type Cooperation } from '../../../test/support/factories';

const dialects = await testDialects();

describe.each(dialects)('resources API on %s', (dialect) => {
  const t = useTestApp(dialect, { demo: false });
  const make = factories(t);
  /** The people who act; the resources and organizations acted on are made by each test. */
  let w: Cooperation;
  beforeAll(async () => {
    w = await make.cooperation();
  });
  /** A valid body with a path and name no other test uses. */
  const input = () => {
    const tag = uniqueTag();
    return { resource_name: `Firmware ${tag}`, resource_type: 'STATIC_CONTENT', resource_access: 'RESTRICTED', path_pattern: `/firmware-${tag}/*`, location: `/srv/firmware-${tag}`, description: 'Firmware files' };
  };
  const maxOrdinal = async () => Number((await t.db.selectFrom('resources').select((eb) => eb.fn.max('ordinal').as('max')).executeTakeFirst())?.max ?? 0);

  it('lets operator SUPERVISOR and DEVOPS create resources with a server-made UUID, audited', async () => {
    const before = await maxOrdinal();
    const body = input();
    const res = await t.call(w.devops.email, { method: 'POST', url: '/api/resources', payload: body });
    expect(res.statusCode).toBe(201);
    const created = res.json();
    expect(created.resource_id).toMatch(/^[0-9a-f-]{36}$/);
    // Without an ordinal, the next after the last.
    expect(created.ordinal).toBe(before + 1);
    const record = await t.db.selectFrom('audit_records').selectAll().where('reason', '=', 'RESOURCE_CREATED').where('message', 'like', `%${body.resource_name}%`).executeTakeFirstOrThrow();
    expect(record).toMatchObject({ organization_id: w.operator.id, member_email: w.devops.email });
    const supervisor = await t.call(w.supervisor.email, { method: 'POST', url: '/api/resources', payload: { ...body, resource_name: `${body.resource_name} old`, path_pattern: `${body.path_pattern.slice(0, -2)}/old/*` } });
    expect(supervisor.statusCode).toBe(201);
  });

  it('refuses everyone else: no token, other organizations, operator roles without the right', async () => {
    const resource = await make.resource();
    expect((await t.call(null, { method: 'POST', url: '/api/resources', payload: input() })).statusCode).toBe(401);
    for (const email of [w.operatorAdmin.email, w.approver.email, w.partnerAdmin.email, w.issuer.email]) {
      expect((await t.call(email, { method: 'POST', url: '/api/resources', payload: input() })).statusCode, email).toBe(403);
      expect((await t.call(email, { method: 'DELETE', url: `/api/resources/${resource.id}` })).statusCode, email).toBe(403);
    }
    for (const email of [w.partnerAdmin.email, w.issuer.email]) {
      expect((await t.call(email, { method: 'GET', url: '/api/resources' })).statusCode).toBe(403);
      expect((await t.call(email, { method: 'GET', url: `/api/resources/${resource.id}` })).statusCode).toBe(403);
    }
    expect((await t.call(w.devops.email, { method: 'GET', url: `/api/resources/${resource.id}` })).statusCode).toBe(200);
  });

  it('shows the location and the other organizations granted only to those who may manage resources (JSON and CSV)', async () => {
    // Issue 30, defect 2: a member saw "Contoso; Tailspin Toys" and /srv/firmware/beta in the list and its CSV.
    const sibling = await make.organization({ parent: w.partner, name: `Tailspin ${uniqueTag()}` });
    const location = `/srv/firmware/beta-${uniqueTag()}`;
    const resource = await make.resource({ location, grants: [w.customer, sibling] });
    const own = [{ organization_id: w.customer.id, organization_name: w.customer.name }];
    const listedIn = async (as: string, url: string) => {
      const res = await t.call(as, { method: 'GET', url });
      expect(res.statusCode, `${as} ${url}`).toBe(200);
      const body = res.json();
      return (Array.isArray(body) ? body : [body]).find((r: { resource_id: string }) => r.resource_id === resource.id);
    };
    const csvOf = async (as: string, url: string) => {
      const res = await t.call(as, { method: 'GET', url: `${url}.csv` });
      expect(res.statusCode).toBe(200);
      return res.body;
    };
    const customerList = `/api/organizations/${w.customer.id}/resources`;
    // Members of the customer and its partner's administrator look at the customer: they see only it.
    for (const as of [w.member.email, w.issuer.email, w.partnerAdmin.email]) {
      expect(await listedIn(as, customerList), as).toMatchObject({ location: null, organizations: own });
      const csv = await csvOf(as, customerList);
      expect(csv).toContain(resource.name);
      expect(csv).not.toContain(sibling.name);
      expect(csv).not.toContain(sibling.id);
      expect(csv).not.toContain(location);
    }
    // Operator staff who may not manage resources read the catalogue, without the location or others' grants.
    for (const url of ['/api/resources', `/api/resources/${resource.id}`]) {
      expect(await listedIn(w.approver.email, url)).toMatchObject({ location: null, organizations: [] });
    }
    expect(await csvOf(w.approver.email, '/api/resources')).not.toContain(location);
    // Those who manage resources (create, save, grant) see all of it.
    for (const as of [w.supervisor.email, w.devops.email, w.operatorAdmin.email]) {
      for (const url of ['/api/resources', `/api/resources/${resource.id}`, customerList]) {
        const shown = await listedIn(as, url);
        expect(shown.location, `${as} ${url}`).toBe(location);
        expect(shown.organizations.map((o: { organization_id: string }) => o.organization_id).sort()).toEqual([w.customer.id, sibling.id].sort());
      }
      expect(await csvOf(as, '/api/resources')).toContain(sibling.name);
    }
  });

  it('refuses bad input with 400 naming the field, and a taken ordinal with 409', async () => {
    const body = input();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ ...body, resource_type: 'DVD' }, 'resource_type'],
      [{ ...body, resource_access: 'SECRET' }, 'resource_access'],
      [{ ...body, location: 'relative/path' }, 'location'],
      [{ ...body, location: '/srv/../etc' }, 'location'],
      [{ ...body, path_pattern: 'no-slash' }, 'path_pattern'],
      [{ ...body, path_pattern: '/a//b' }, 'path_pattern'],
      [{ ...body, path_pattern: '/a/../b' }, 'path_pattern'],
      [{ ...body, resource_name: ' ' }, 'resource_name'],
      [{ ...body, ordinal: 0 }, 'ordinal'],
    ];
    for (const [payload, field] of cases) {
      const res = await t.call(w.devops.email, { method: 'POST', url: '/api/resources', payload });
      expect(res.statusCode, field).toBe(400);
      expect(res.json().field).toBe(field);
    }
    const other = await make.resource();
    const taken = await t.call(w.devops.email, { method: 'POST', url: '/api/resources', payload: { ...body, ordinal: other.ordinal } });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().message).toContain(`Ordinal ${other.ordinal} is taken`);
  });

  it('refuses traversal in a location or pattern however it is written, on create and on update, changing nothing', async () => {
    const resource = await make.resource();
    const body = input();
    const count = async (table: 'resources' | 'audit_records') => Number((await t.db.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    const before = { resources: await count('resources'), journal: await count('audit_records'), row: await t.db.selectFrom('resources').selectAll().where('resource_id', '=', resource.id).executeTakeFirstOrThrow() };
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ location: '/srv/%2e%2e/etc' }, 'location', '.. segment'],
      [{ location: '/srv/%2E%2e' }, 'location', '.. segment'],
      [{ location: '/srv/.%2e/etc' }, 'location', '.. segment'],
      [{ location: '/srv/%252e%252e/etc' }, 'location', '.. segment'],
      [{ location: '/srv/%25252e%25252e/etc' }, 'location', '.. segment'],
      [{ location: '/srv/..%2fetc' }, 'location', '.. segment'],
      [{ location: '/srv/a%2f..%2f..%2fetc' }, 'location', '.. segment'],
      [{ location: '/srv/..\\etc' }, 'location', '.. segment'],
      [{ location: '/srv\\..\\etc' }, 'location', '.. segment'],
      [{ location: '/srv/..%5cetc' }, 'location', '.. segment'],
      [{ location: '/srv/%c0%ae%c0%ae/etc' }, 'location', 'not UTF-8'],
      [{ location: '/srv/a%00b' }, 'location', 'control characters'],
      [{ location: '/srv/a\u0000b' }, 'location', 'control characters'],
      [{ location: '/srv/a\tb' }, 'location', 'control characters'],
      [{ location: '/srv/a%0Ab' }, 'location', 'control characters'],
      [{ location: '%2fsrv' }, 'location', 'absolute'],
      [{ path_pattern: '/a/%2e%2e/b' }, 'path_pattern', 'path pattern'],
      [{ path_pattern: '/a\\..\\b' }, 'path_pattern', 'path pattern'],
      [{ path_pattern: '/a/../b' }, 'path_pattern', 'path pattern'],
      [{ path_pattern: '/a/${HOME}' }, 'path_pattern', 'path pattern'],
    ];
    for (const [change, field, why] of cases) {
      for (const [method, url] of [['POST', '/api/resources'], ['PUT', `/api/resources/${resource.id}`]] as const) {
        const res = await t.call(w.devops.email, { method, url, payload: { ...body, ...change } });
        expect(res.statusCode, `${method} ${JSON.stringify(change)}`).toBe(400);
        expect(res.json().field).toBe(field);
        expect(res.json().message).toContain(field);
        expect(res.json().message).toContain(why);
      }
    }
    expect(await count('resources')).toBe(before.resources);
    expect(await count('audit_records')).toBe(before.journal);
    expect(await t.db.selectFrom('resources').selectAll().where('resource_id', '=', resource.id).executeTakeFirstOrThrow()).toEqual(before.row);

    // A percent sign or an encoded slash that does not make a .. segment is a name like any other; locations are kept in NFC.
    for (const [location, stored] of [['/srv/100%', '/srv/100%'], ['/srv/a%2fb/%zz', '/srv/a%2fb/%zz'], ['/srv/..a/b..', '/srv/..a/b..'], ['/srv/Cafe\u0301', '/srv/Caf\u00e9']]) {
      const res = await t.call(w.devops.email, { method: 'POST', url: '/api/resources', payload: { ...body, location } });
      expect(res.statusCode, location).toBe(201);
      expect(res.json().location).toBe(stored);
      await t.db.deleteFrom('resources').where('resource_id', '=', res.json().resource_id).execute();
    }
  });

  it('updates and lists in ordinal order, filtered by name or path', async () => {
    // Two of this test's own after a gap, the later one moved into the gap before the other.
    const tag = uniqueTag();
    const gap = (await maxOrdinal()) + 10;
    const old = await make.resource({ ordinal: gap + 2, path_pattern: `/firmware-${tag}/old/*` });
    const moved = await make.resource({ ordinal: gap + 3, path_pattern: `/firmware-${tag}/*` });
    const body = { ...input(), path_pattern: moved.path_pattern };
    const res = await t.call(w.supervisor.email, { method: 'PUT', url: `/api/resources/${moved.id}`, payload: { ...body, ordinal: gap + 1, resource_name: `Firmware images ${tag}` } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ ordinal: gap + 1, resource_name: `Firmware images ${tag}` });
    const list = (await t.call(w.operatorAdmin.email, { method: 'GET', url: '/api/resources' })).json() as Array<{ ordinal: number; resource_id: string }>;
    expect(list.map((r) => r.ordinal)).toEqual([...list.map((r) => r.ordinal)].sort((a, b) => a - b));
    const at = list.findIndex((r) => r.resource_id === moved.id);
    expect(list[at]).toMatchObject({ resource_name: `Firmware images ${tag}` });
    expect(list[at + 1].resource_id).toBe(old.id);
    const filtered = (await t.call(w.operatorAdmin.email, { method: 'GET', url: `/api/resources?filter=FIRMWARE-${tag.toUpperCase()}/` })).json();
    expect(filtered.map((r: { path_pattern: string }) => r.path_pattern)).toEqual([`/firmware-${tag}/*`, `/firmware-${tag}/old/*`]);
    const byName = (await t.call(w.operatorAdmin.email, { method: 'GET', url: `/api/resources?filter=${encodeURIComponent(`images ${tag}`)}` })).json();
    expect(byName.map((r: { resource_id: string }) => r.resource_id)).toEqual([moved.id]);
  });

  it('grants a RESTRICTED resource: operator ADMINISTRATOR on the resource screen, SUPERVISOR or DEVOPS per organization', async () => {
    const customer = await make.organization({ parent: w.partner });
    const reader = await make.member(customer);
    const resource = await make.resource();
    const url = (what: string, org: string) => `/api/resources/${resource.id}/${what}?organization=${org}`;
    const names = async () => (await t.call(reader.email, { method: 'GET', url: `/api/organizations/${customer.id}/resources` })).json().map((r: { resource_name: string }) => r.resource_name);
    expect(await names()).not.toContain(resource.name);
    const granted = await t.call(w.operatorAdmin.email, { method: 'POST', url: url('add', customer.id) });
    expect(granted.statusCode).toBe(200);
    expect(granted.json().organizations).toEqual([{ organization_id: customer.id, organization_name: customer.name }]);
    expect(await names()).toContain(resource.name);
    expect((await t.call(w.devops.email, { method: 'POST', url: url('remove', customer.id) })).statusCode).toBe(200);
    expect(await names()).not.toContain(resource.name);
    const reasons = (await t.db.selectFrom('audit_records').select('reason').where('organization_id', '=', customer.id).orderBy('record_id').execute()).map((r) => r.reason);
    expect(reasons).toEqual(['RESOURCE_GRANTED', 'RESOURCE_REVOKED']);
    // Partners and approvers may not; unknown organizations are 404; PUBLIC ones are not granted.
    expect((await t.call(w.partnerAdmin.email, { method: 'POST', url: url('add', customer.id) })).statusCode).toBe(403);
    expect((await t.call(w.approver.email, { method: 'POST', url: url('add', customer.id) })).statusCode).toBe(403);
    expect((await t.call(w.operatorAdmin.email, { method: 'POST', url: url('add', 'nope') })).statusCode).toBe(404);
    const missing = await t.call(w.operatorAdmin.email, { method: 'POST', url: `/api/resources/${resource.id}/add` });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().field).toBe('organization');
    const publicOne = await make.resource({ access: 'PUBLIC' });
    const refused = await t.call(w.operatorAdmin.email, { method: 'POST', url: `/api/resources/${publicOne.id}/add?organization=${customer.id}` });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toContain(`${publicOne.name} is PUBLIC`);
  });

  it("shows an organization the PUBLIC and DEFAULT resources and its granted RESTRICTED ones, and hides it from other tenants", async () => {
    const customer = await make.organization({ parent: w.partner });
    const other = await make.organization({ parent: w.partner });
    const reader = await make.member(customer);
    const publicOne = await make.resource({ access: 'PUBLIC' });
    const defaultOne = await make.resource({ access: 'DEFAULT', type: 'LINUX_PACKAGE' });
    const granted = await make.resource({ grants: [customer] });
    const notGranted = await make.resource({ grants: [other] });
    const shown = (await t.call(reader.email, { method: 'GET', url: `/api/organizations/${customer.id}/resources` })).json() as Array<{ resource_id: string }>;
    // Every PUBLIC and DEFAULT resource (other tests' too) and the one granted, in ordinal order.
    const everyone = await t.db.selectFrom('resources').select('resource_id').where('resource_access', '!=', 'RESTRICTED').orderBy('ordinal').execute();
    const ordinals = new Map((await t.db.selectFrom('resources').select(['resource_id', 'ordinal']).execute()).map((r) => [r.resource_id, r.ordinal]));
    const expected = [...everyone.map((r) => r.resource_id), granted.id].sort((a, b) => ordinals.get(a)! - ordinals.get(b)!);
    expect(shown.map((r) => r.resource_id)).toEqual(expected);
    expect(expected).toEqual(expect.arrayContaining([publicOne.id, defaultOne.id, granted.id]));
    expect(expected).not.toContain(notGranted.id);
    expect((await t.call(w.partnerIssuer.email, { method: 'GET', url: `/api/organizations/${customer.id}/resources` })).statusCode).toBe(404);
  });

  it('removes a resource', async () => {
    const resource = await make.resource();
    expect((await t.call(w.devops.email, { method: 'DELETE', url: `/api/resources/${resource.id}` })).statusCode).toBe(204);
    expect((await t.call(w.devops.email, { method: 'GET', url: `/api/resources/${resource.id}` })).statusCode).toBe(404);
    expect((await t.call(w.devops.email, { method: 'DELETE', url: `/api/resources/${resource.id}` })).statusCode).toBe(404);
  });
});
