import { describe, expect, it } from 'vitest';
import { testDialects } from '../../../test/support/databases';
import { useTestApp } from '../../../test/support/test-app';

const dialects = await testDialects();

describe.each(dialects)('resources API on %s', (dialect) => {
  const t = useTestApp(dialect);
  const input = { resource_name: 'Firmware', resource_type: 'STATIC_CONTENT', resource_access: 'RESTRICTED', path_pattern: '/firmware/*', location: '/srv/firmware', description: 'Firmware files' };
  let created: { resource_id: string; ordinal: number };

  it('lets operator SUPERVISOR and DEVOPS create resources with a server-made UUID, audited', async () => {
    const res = await t.call('devops@operator.example', { method: 'POST', url: '/api/resources', payload: input });
    expect(res.statusCode).toBe(201);
    created = res.json();
    expect(created.resource_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(created.ordinal).toBe(51);
    const record = await t.db.selectFrom('audit_records').selectAll().where('reason', '=', 'RESOURCE_CREATED').executeTakeFirstOrThrow();
    expect(record).toMatchObject({ organization_id: t.org.operator, member_email: 'devops@operator.example' });
    const supervisor = await t.call('supervisor@operator.example', { method: 'POST', url: '/api/resources', payload: { ...input, path_pattern: '/firmware/old/*' } });
    expect(supervisor.statusCode).toBe(201);
  });

  it('refuses everyone else: no token, other organizations, operator roles without the right', async () => {
    expect((await t.call(null, { method: 'POST', url: '/api/resources', payload: input })).statusCode).toBe(401);
    for (const email of ['admin@operator.example', 'approver@operator.example', 'admin@northwind.example', 'issuer@contoso.example']) {
      expect((await t.call(email, { method: 'POST', url: '/api/resources', payload: input })).statusCode, email).toBe(403);
      expect((await t.call(email, { method: 'DELETE', url: `/api/resources/${created.resource_id}` })).statusCode, email).toBe(403);
    }
    for (const email of ['admin@northwind.example', 'issuer@contoso.example']) {
      expect((await t.call(email, { method: 'GET', url: '/api/resources' })).statusCode).toBe(403);
      expect((await t.call(email, { method: 'GET', url: `/api/resources/${created.resource_id}` })).statusCode).toBe(403);
    }
  });

  it('refuses bad input with 400 naming the field, and a taken ordinal with 409', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ ...input, resource_type: 'DVD' }, 'resource_type'],
      [{ ...input, resource_access: 'SECRET' }, 'resource_access'],
      [{ ...input, location: 'relative/path' }, 'location'],
      [{ ...input, location: '/srv/../etc' }, 'location'],
      [{ ...input, path_pattern: 'no-slash' }, 'path_pattern'],
      [{ ...input, path_pattern: '/a//b' }, 'path_pattern'],
      [{ ...input, path_pattern: '/a/../b' }, 'path_pattern'],
      [{ ...input, resource_name: ' ' }, 'resource_name'],
      [{ ...input, ordinal: 0 }, 'ordinal'],
    ];
    for (const [payload, field] of cases) {
      const res = await t.call('devops@operator.example', { method: 'POST', url: '/api/resources', payload });
      expect(res.statusCode, field).toBe(400);
      expect(res.json().field).toBe(field);
    }
    const taken = await t.call('devops@operator.example', { method: 'POST', url: '/api/resources', payload: { ...input, ordinal: 10 } });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().message).toContain('Ordinal 10 is taken');
  });

  it('refuses traversal in a location or pattern however it is written, on create and on update, changing nothing', async () => {
    const count = async (table: 'resources' | 'audit_records') => Number((await t.db.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    const before = { resources: await count('resources'), journal: await count('audit_records'), row: await t.db.selectFrom('resources').selectAll().where('resource_id', '=', created.resource_id).executeTakeFirstOrThrow() };
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
      for (const [method, url] of [['POST', '/api/resources'], ['PUT', `/api/resources/${created.resource_id}`]] as const) {
        const res = await t.call('devops@operator.example', { method, url, payload: { ...input, ...change } });
        expect(res.statusCode, `${method} ${JSON.stringify(change)}`).toBe(400);
        expect(res.json().field).toBe(field);
        expect(res.json().message).toContain(field);
        expect(res.json().message).toContain(why);
      }
    }
    expect(await count('resources')).toBe(before.resources);
    expect(await count('audit_records')).toBe(before.journal);
    expect(await t.db.selectFrom('resources').selectAll().where('resource_id', '=', created.resource_id).executeTakeFirstOrThrow()).toEqual(before.row);

    // A percent sign or an encoded slash that does not make a .. segment is a name like any other; locations are kept in NFC.
    for (const [location, stored] of [['/srv/100%', '/srv/100%'], ['/srv/a%2fb/%zz', '/srv/a%2fb/%zz'], ['/srv/..a/b..', '/srv/..a/b..'], ['/srv/Cafe\u0301', '/srv/Caf\u00e9']]) {
      const res = await t.call('devops@operator.example', { method: 'POST', url: '/api/resources', payload: { ...input, location } });
      expect(res.statusCode, location).toBe(201);
      expect(res.json().location).toBe(stored);
      await t.db.deleteFrom('resources').where('resource_id', '=', res.json().resource_id).execute();
    }
  });

  it('updates and lists in ordinal order, filtered by name or path', async () => {
    const res = await t.call('supervisor@operator.example', { method: 'PUT', url: `/api/resources/${created.resource_id}`, payload: { ...input, ordinal: 5, resource_name: 'Firmware images' } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ ordinal: 5, resource_name: 'Firmware images' });
    const list = (await t.call('admin@operator.example', { method: 'GET', url: '/api/resources' })).json() as Array<{ ordinal: number }>;
    expect(list.map((r) => r.ordinal)).toEqual([...list.map((r) => r.ordinal)].sort((a, b) => a - b));
    expect(list[0]).toMatchObject({ resource_name: 'Firmware images' });
    const filtered = (await t.call('admin@operator.example', { method: 'GET', url: '/api/resources?filter=FIRMWARE/' })).json();
    expect(filtered.map((r: { path_pattern: string }) => r.path_pattern).sort()).toEqual(['/firmware/*', '/firmware/old/*']);
  });

  it('grants a RESTRICTED resource: operator ADMINISTRATOR on the resource screen, SUPERVISOR or DEVOPS per organization', async () => {
    const url = (what: string, org: string) => `/api/resources/${created.resource_id}/${what}?organization=${org}`;
    const names = async () => (await t.call('member@contoso.example', { method: 'GET', url: `/api/organizations/${t.org.contoso}/resources` })).json().map((r: { resource_name: string }) => r.resource_name);
    expect(await names()).not.toContain('Firmware images');
    const granted = await t.call('admin@operator.example', { method: 'POST', url: url('add', t.org.contoso) });
    expect(granted.statusCode).toBe(200);
    expect(granted.json().organizations).toEqual([{ organization_id: t.org.contoso, organization_name: 'Contoso' }]);
    expect(await names()).toContain('Firmware images');
    expect((await t.call('devops@operator.example', { method: 'POST', url: url('remove', t.org.contoso) })).statusCode).toBe(200);
    expect(await names()).not.toContain('Firmware images');
    const reasons = (await t.db.selectFrom('audit_records').select('reason').where('organization_id', '=', t.org.contoso).orderBy('record_id').execute()).map((r) => r.reason);
    expect(reasons.slice(-2)).toEqual(['RESOURCE_GRANTED', 'RESOURCE_REVOKED']);
    // Partners and approvers may not; unknown organizations are 404; PUBLIC ones are not granted.
    expect((await t.call('admin@northwind.example', { method: 'POST', url: url('add', t.org.contoso) })).statusCode).toBe(403);
    expect((await t.call('approver@operator.example', { method: 'POST', url: url('add', t.org.contoso) })).statusCode).toBe(403);
    expect((await t.call('admin@operator.example', { method: 'POST', url: url('add', 'nope') })).statusCode).toBe(404);
    const missing = await t.call('admin@operator.example', { method: 'POST', url: `/api/resources/${created.resource_id}/add` });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().field).toBe('organization');
    const publicOne = (await t.call('admin@operator.example', { method: 'GET', url: '/api/resources' })).json().find((r: { resource_access: string }) => r.resource_access === 'PUBLIC');
    expect((await t.call('admin@operator.example', { method: 'POST', url: `/api/resources/${publicOne.resource_id}/add?organization=${t.org.contoso}` })).statusCode).toBe(409);
  });

  it("shows an organization the PUBLIC and DEFAULT resources and its granted RESTRICTED ones, and hides it from other tenants", async () => {
    const contoso = (await t.call('member@contoso.example', { method: 'GET', url: `/api/organizations/${t.org.contoso}/resources` })).json();
    expect(contoso.map((r: { resource_name: string }) => r.resource_name)).toEqual(['Release notes', 'Linux packages (stable)', 'Container images', 'Linux packages (beta)']);
    expect((await t.call('issuer@northwind.example', { method: 'GET', url: `/api/organizations/${t.org.contoso}/resources` })).statusCode).toBe(404);
  });

  it('removes a resource', async () => {
    expect((await t.call('devops@operator.example', { method: 'DELETE', url: `/api/resources/${created.resource_id}` })).statusCode).toBe(204);
    expect((await t.call('devops@operator.example', { method: 'GET', url: `/api/resources/${created.resource_id}` })).statusCode).toBe(404);
    expect((await t.call('devops@operator.example', { method: 'DELETE', url: `/api/resources/${created.resource_id}` })).statusCode).toBe(404);
  });
});
