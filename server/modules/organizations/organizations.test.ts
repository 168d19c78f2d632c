import { describe, expect, it } from 'vitest';
import { testDialects } from '../../../test/support/databases';
import { useTestApp, type TestApp } from '../../../test/support/test-app';
import { normalizeWebsite, parseDomains } from '../../../common/schemas/organization';
import type { Scope } from '../../../common/enums';

const dialects = await testDialects();

describe('organization input (pure)', () => {
  it('splits domains on commas and whitespace, lower-cases, deduplicates and names the invalid ones', () => {
    expect(parseDomains('Tailspin.example, tail-spin.example\n tailspin.example\t@mail.tailspin.example.')).toEqual({
      domains: ['tailspin.example', 'tail-spin.example', 'mail.tailspin.example'],
      invalid: [],
    });
    expect(parseDomains(['a.example b.example', 'A.EXAMPLE'])).toEqual({ domains: ['a.example', 'b.example'], invalid: [] });
    expect(parseDomains('bücher.example').domains).toEqual(['xn--bcher-kva.example']);
    expect(parseDomains('')).toEqual({ domains: [], invalid: [] });
    const bad = ['localhost', 'under_score.example', '-dash.example', 'dash-.example', '1.2.3.4', 'a..example', `${'x'.repeat(64)}.example`, 'x@y.example'];
    for (const text of bad) expect(parseDomains(text).invalid, text).toEqual([text]);
  });

  it('prefixes websites without a scheme and refuses what is no web address', () => {
    expect(normalizeWebsite('tailspin.example')).toBe('https://tailspin.example');
    expect(normalizeWebsite('http://tailspin.example/about')).toBe('http://tailspin.example/about');
    for (const text of ['ftp://tailspin.example', 'javascript:alert(1)', 'not a url', 'https://intranet', 'https://user:pw@tailspin.example']) {
      expect(normalizeWebsite(text), text).toBeNull();
    }
  });
});

/** Sets the scope of a demo account's role in its own organization. */
async function setScope(t: TestApp, email: string, scope: Scope) {
  const member = t.db.selectFrom('members').select('member_id').where('member_email', '=', email);
  await t.db.updateTable('role_assignments').set({ scope }).where('member_id', 'in', member).execute();
}

describe.each(dialects)('organizations API on %s', (dialect) => {
  const t = useTestApp(dialect);
  const url = (id: string) => `/api/organizations/${id}`;
  const lastRecord = (reason: string) =>
    t.db.selectFrom('audit_records').selectAll().where('reason', '=', reason).orderBy('record_id', 'desc').executeTakeFirstOrThrow();
  const create = (as: string, payload: Record<string, unknown>) => t.call(as, { method: 'POST', url: '/api/organizations', payload });

  describe('who may act where', () => {
    // Per endpoint: no token 401, an unrelated organization 404, a reader without the role 403, the allowed success.
    const cases = [
      { name: 'PUT', method: 'PUT', path: () => url(t.org.contoso), payload: { address: 'Hafenstraße 1' }, ok: 200 },
      { name: 'ban', method: 'POST', path: () => `${url(t.org.contoso)}/ban?note=Unpaid`, ok: 200 },
      { name: 'unban', method: 'POST', path: () => `${url(t.org.contoso)}/unban`, ok: 200 },
    ] as const;
    for (const c of cases) {
      it(`${c.name} an organization`, async () => {
        const call = (as: string | null, path = c.path()) => t.call(as, { method: c.method, url: path, payload: 'payload' in c ? c.payload : undefined });
        expect((await call(null)).statusCode).toBe(401);
        expect((await call('issuer@northwind.example')).statusCode).toBe(404);
        expect((await call('approver@operator.example')).statusCode).toBe(403);
        // While Contoso is banned (unban), its own members are shut out altogether.
        if (c.name !== 'unban') {
          expect((await call('issuer@contoso.example', c.path().replace(t.org.contoso, t.org.northwind))).statusCode).toBe(404);
          expect((await call('member@contoso.example')).statusCode).toBe(403);
        }
        expect((await call('admin@northwind.example')).statusCode).toBe(c.ok);
      });
    }

    it('creates an organization: 401 without a token, 403 without the role, 400 below a parent one cannot see', async () => {
      const payload = { organization_name: 'Wingtip Toys' };
      expect((await create(null as unknown as string, payload)).statusCode).toBe(401);
      expect((await create('issuer@northwind.example', payload)).statusCode).toBe(403);
      const hidden = await create('issuer@northwind.example', { ...payload, parent_organization: t.org.operator });
      expect(hidden.statusCode).toBe(400);
      expect(hidden.json()).toMatchObject({ field: 'parent_organization', message: 'Parent organization not found.' });
      const res = await create('admin@northwind.example', payload);
      expect(res.statusCode).toBe(201);
      expect(res.json()).toMatchObject({ organization_name: 'Wingtip Toys', organization_role: 'CUSTOMER', parent_organization: t.org.northwind, domains: [] });
      const record = await lastRecord('ORGANIZATION_CREATED');
      expect(record).toMatchObject({ organization_id: res.json().organization_id, member_email: 'admin@northwind.example', message: 'Created customer organization Wingtip Toys.' });
    });
  });

  describe('bans', () => {
    it("shuts out the banned organization's members at their next call, journals both, and unban restores", async () => {
      expect((await t.call('member@contoso.example', { method: 'GET', url: url(t.org.contoso) })).statusCode).toBe(200);
      const ban = await t.call('supervisor@operator.example', { method: 'POST', url: `${url(t.org.contoso)}/ban?note=${encodeURIComponent(' Contract paused. ')}` });
      expect(ban.statusCode).toBe(200);
      expect(ban.json()).toMatchObject({ ban_note: 'Contract paused.', date_organization_banned: t.clock.now().toISOString() });
      const refused = await t.call('member@contoso.example', { method: 'GET', url: url(t.org.contoso) });
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toMatchObject({ redirect: 'AccessError' });
      expect(await lastRecord('ORGANIZATION_BANNED')).toMatchObject({ organization_id: t.org.contoso, message: 'Banned organization Contoso: Contract paused.' });
      const again = await t.call('supervisor@operator.example', { method: 'POST', url: `${url(t.org.contoso)}/ban` });
      expect(again.statusCode).toBe(409);
      expect(again.json().message).toBe('Contoso is already banned.');

      const unban = await t.call('supervisor@operator.example', { method: 'POST', url: `${url(t.org.contoso)}/unban` });
      expect(unban.json()).toMatchObject({ ban_note: null, date_organization_banned: null });
      expect((await t.call('member@contoso.example', { method: 'GET', url: url(t.org.contoso) })).statusCode).toBe(200);
      expect(await lastRecord('ORGANIZATION_UNBANNED')).toMatchObject({ organization_id: t.org.contoso, member_email: 'supervisor@operator.example' });
      expect((await t.call('supervisor@operator.example', { method: 'POST', url: `${url(t.org.contoso)}/unban` })).statusCode).toBe(409);
    });

    it('never bans the operator organization or the caller\'s own, and limits the note to 1000 characters', async () => {
      const operator = await t.call('supervisor@operator.example', { method: 'POST', url: `${url(t.org.operator)}/ban` });
      expect(operator.statusCode).toBe(409);
      expect(operator.json().message).toBe('The operator organization cannot be banned.');
      const own = await t.call('admin@northwind.example', { method: 'POST', url: `${url(t.org.northwind)}/ban` });
      expect(own.statusCode).toBe(409);
      expect(own.json().message).toBe('You cannot ban your own organization.');
      const long = await t.call('supervisor@operator.example', { method: 'POST', url: `${url(t.org.contoso)}/ban?note=${'x'.repeat(1001)}` });
      expect(long.statusCode).toBe(400);
      expect(long.json().field).toBe('note');
      expect((await t.call('supervisor@operator.example', { method: 'POST', url: `${url(t.org.fabrikam)}/ban` })).statusCode).toBe(409);
    });
  });

  describe('role scopes', () => {
    it('lets a partner ADMINISTRATOR with MANAGED scope act on its customers but not on itself', async () => {
      await setScope(t, 'admin@northwind.example', 'MANAGED');
      try {
        const as = 'admin@northwind.example';
        expect((await t.call(as, { method: 'PUT', url: url(t.org.contoso), payload: { address: 'Managed 1' } })).statusCode).toBe(200);
        expect((await t.call(as, { method: 'PUT', url: url(t.org.northwind), payload: { address: 'Own 1' } })).statusCode).toBe(404);
        expect((await t.call(as, { method: 'POST', url: `${url(t.org.northwind)}/ban` })).statusCode).toBe(404);
        // A new customer below its own organization is managed by it, so MANAGED may create one.
        expect((await create(as, { organization_name: 'Managed Child' })).statusCode).toBe(201);
      } finally {
        await setScope(t, 'admin@northwind.example', 'COOPERATION');
      }
    });

    it('and with ORGANIZATION scope on itself but not on its customers', async () => {
      await setScope(t, 'admin@northwind.example', 'ORGANIZATION');
      try {
        const as = 'admin@northwind.example';
        expect((await t.call(as, { method: 'PUT', url: url(t.org.northwind), payload: { address: 'Own 2' } })).statusCode).toBe(200);
        expect((await t.call(as, { method: 'PUT', url: url(t.org.contoso), payload: { address: 'Managed 2' } })).statusCode).toBe(404);
        expect((await t.call(as, { method: 'POST', url: `${url(t.org.contoso)}/ban` })).statusCode).toBe(404);
        expect((await create(as, { organization_name: 'Organization Child' })).statusCode).toBe(403);
      } finally {
        await setScope(t, 'admin@northwind.example', 'COOPERATION');
      }
    });
  });

  describe('create', () => {
    it('normalizes website, domains and text, and defaults the parent to the creator\'s organization', async () => {
      const res = await create('supervisor@operator.example', {
        organization_name: '  Tailspin Toys ',
        website: 'tailspin.example',
        logo_url: 'https://cdn.tailspin.example/logo.png',
        address: '  ',
        domains: 'Tailspin.example, mail.tailspin.example  tailspin.example',
      });
      expect(res.statusCode).toBe(201);
      expect(res.json()).toMatchObject({
        organization_name: 'Tailspin Toys',
        organization_role: 'CUSTOMER',
        parent_organization: t.org.operator,
        parent_organization_name: 'Operator',
        website: 'https://tailspin.example',
        logo_url: 'https://cdn.tailspin.example/logo.png',
        address: null,
        domains: ['mail.tailspin.example', 'tailspin.example'],
        roles: [{ organization_id: t.org.operator, role: 'SUPERVISOR' }],
      });
    });

    it('places a customer below a chosen partner, a partner always below the creator', async () => {
      const customer = await create('supervisor@operator.example', { organization_name: 'Coho Winery', parent_organization: t.org.northwind, domains: ['coho.example'] });
      expect(customer.json()).toMatchObject({ parent_organization: t.org.northwind, domains: ['coho.example'] });
      const partner = await create('supervisor@operator.example', { organization_name: 'Litware', organization_role: 'PARTNER', parent_organization: t.org.northwind });
      expect(partner.json()).toMatchObject({ organization_role: 'PARTNER', parent_organization: t.org.operator });
      // The partner's admin can now read the customer it manages.
      const list = await t.call('admin@northwind.example', { method: 'GET', url: '/api/organizations?filter=coho' });
      expect(list.json()).toHaveLength(1);
    });

    it('refuses bad input with 400 naming the field, and duplicates with 409', async () => {
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ organization_name: 'Op2', organization_role: 'OPERATOR' }, 'organization_role'],
        [{ organization_name: '   ' }, 'organization_name'],
        [{}, 'organization_name'],
        [{ organization_name: 'X1', parent_organization: t.org.contoso }, 'parent_organization'],
        [{ organization_name: 'X2', parent_organization: 'no-such-organization' }, 'parent_organization'],
        [{ organization_name: 'X3', website: 'not a web address' }, 'website'],
        [{ organization_name: 'X4', logo_url: 'http://insecure.example/logo.png' }, 'logo_url'],
        [{ organization_name: 'X5', domains: 'good.example, bad_domain' }, 'domains'],
        [{ organization_name: 'X6', domains: 42 }, 'domains'],
        [{ organization_name: 'X7', address: 'x'.repeat(1001) }, 'address'],
      ];
      for (const [payload, field] of cases) {
        const res = await create('supervisor@operator.example', payload);
        expect(res.statusCode, JSON.stringify(payload)).toBe(400);
        expect(res.json().field, JSON.stringify(payload)).toBe(field);
      }
      const customerParent = await create('supervisor@operator.example', { organization_name: 'X1', parent_organization: t.org.contoso });
      expect(customerParent.json().message).toContain('Contoso is a customer organization');
      const bad = await create('supervisor@operator.example', { organization_name: 'X5', domains: 'good.example, bad_domain' });
      expect(bad.json().message).toContain('bad_domain');

      const name = await create('supervisor@operator.example', { organization_name: 'CONTOSO' });
      expect(name.statusCode).toBe(409);
      expect(name.json().message).toBe('An organization named CONTOSO already exists.');
      const domain = await create('supervisor@operator.example', { organization_name: 'Contoso Look-alike', domains: ['Contoso.example'] });
      expect(domain.statusCode).toBe(409);
      expect(domain.json().message).toBe('Another organization already trusts contoso.example.');
      const names = await t.db.selectFrom('organizations').select('organization_name').execute();
      expect(names.map((n) => n.organization_name)).not.toContain('Contoso Look-alike');
    });
  });

  describe('save', () => {
    it('saves the fields, journals what changed, and takes back the organization as GET returns it', async () => {
      const current = (await t.call('supervisor@operator.example', { method: 'GET', url: url(t.org.contoso) })).json();
      const res = await t.call('supervisor@operator.example', {
        method: 'PUT',
        url: url(t.org.contoso),
        payload: { ...current, website: 'www.contoso.example', domains: ['contoso.example', 'Contoso.example', 'eu.contoso.example'] },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ organization_name: 'Contoso', website: 'https://www.contoso.example', domains: ['contoso.example', 'eu.contoso.example'] });
      expect(await lastRecord('ORGANIZATION_SAVED')).toMatchObject({
        organization_id: t.org.contoso,
        message: 'Saved organization Contoso (website, domains).',
      });
      const cleared = await t.call('supervisor@operator.example', { method: 'PUT', url: url(t.org.contoso), payload: { website: '', domains: 'contoso.example' } });
      expect(cleared.json()).toMatchObject({ website: null, domains: ['contoso.example'], address: current.address });
    });

    it('refuses unknown fields with 400 naming them, and journals no save that changes nothing', async () => {
      const records = async () => Number((await t.db.selectFrom('audit_records').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
      const before = await records();
      const stray = await t.call('supervisor@operator.example', { method: 'PUT', url: url(t.org.contoso), payload: { colour: 'red', organisation_name: 'Typo' } });
      expect(stray.statusCode).toBe(400);
      expect(stray.json()).toMatchObject({ field: 'colour', message: "Unknown fields 'colour', 'organisation_name' in the body: nothing was changed." });
      const current = (await t.call('supervisor@operator.example', { method: 'GET', url: url(t.org.contoso) })).json();
      const same = await t.call('supervisor@operator.example', { method: 'PUT', url: url(t.org.contoso), payload: current });
      expect(same.statusCode).toBe(200);
      expect(same.json()).toEqual(current);
      expect((await t.call('supervisor@operator.example', { method: 'PUT', url: url(t.org.contoso), payload: {} })).statusCode).toBe(200);
      expect(await records()).toBe(before);
    });

    it("lets nobody trust a domain whose members belong to an organization they do not manage", async () => {
      // A partner administrator tries to capture the operator's staff domain for a new customer.
      const capture = await create('admin@northwind.example', { organization_name: 'Operator Look-alike', domains: ['operator.example'] });
      expect(capture.statusCode).toBe(403);
      expect(capture.json().message).toBe('operator.example is the email domain of members of an organization you do not manage, so you cannot trust it.');
      expect(await t.db.selectFrom('organizations').select('organization_id').where('organization_name', '=', 'Operator Look-alike').executeTakeFirst()).toBeUndefined();
      const onSave = await t.call('admin@northwind.example', { method: 'PUT', url: url(t.org.contoso), payload: { domains: ['contoso.example', 'Operator.example'] } });
      expect(onSave.statusCode).toBe(403);
      expect((await t.call('admin@northwind.example', { method: 'GET', url: url(t.org.contoso) })).json().domains).toEqual(['contoso.example']);
      // Its own people's domain is its to give: northwind.example members are all Northwind's.
      const own = await create('admin@northwind.example', { organization_name: 'Northwind Lab', domains: ['lab.northwind.example'] });
      expect(own.statusCode).toBe(201);
      // The operator's supervisor sees every member, so may trust any domain nobody else trusts.
      const operator = await t.call('supervisor@operator.example', { method: 'PUT', url: url(t.org.operator), payload: { domains: ['operator.example'] } });
      expect(operator.statusCode).toBe(200);
      await t.call('supervisor@operator.example', { method: 'PUT', url: url(t.org.operator), payload: { domains: [] } });
    });

    it('keeps the role, and moves only customers to another parent', async () => {
      const role = await t.call('supervisor@operator.example', { method: 'PUT', url: url(t.org.contoso), payload: { organization_role: 'PARTNER' } });
      expect(role.statusCode).toBe(400);
      expect(role.json().field).toBe('organization_role');
      // A partner's parent is not chosen: the field is ignored.
      const partner = await t.call('supervisor@operator.example', { method: 'PUT', url: url(t.org.northwind), payload: { organization_role: 'PARTNER', parent_organization: t.org.contoso } });
      expect(partner.statusCode).toBe(200);
      expect(partner.json().parent_organization).toBe(t.org.operator);

      const moved = await t.call('supervisor@operator.example', { method: 'PUT', url: url(t.org.contoso), payload: { parent_organization: t.org.operator } });
      expect(moved.json()).toMatchObject({ parent_organization: t.org.operator, parent_organization_name: 'Operator' });
      // Northwind no longer manages Contoso.
      expect((await t.call('admin@northwind.example', { method: 'GET', url: url(t.org.contoso) })).statusCode).toBe(404);
      const back = await t.call('supervisor@operator.example', { method: 'PUT', url: url(t.org.contoso), payload: { parent_organization: t.org.northwind } });
      expect(back.json().parent_organization).toBe(t.org.northwind);
      // Northwind's admin cannot move its customer below organizations it cannot see.
      expect((await t.call('admin@northwind.example', { method: 'PUT', url: url(t.org.contoso), payload: { parent_organization: t.org.operator } })).statusCode).toBe(400);
      expect((await t.call('admin@northwind.example', { method: 'PUT', url: url(t.org.contoso), payload: { parent_organization: t.org.fabrikam } })).statusCode).toBe(400);
    });

    it('refuses a name or a domain another organization has', async () => {
      const name = await t.call('admin@northwind.example', { method: 'PUT', url: url(t.org.contoso), payload: { organization_name: 'northwind networks' } });
      expect(name.statusCode).toBe(409);
      const domain = await t.call('supervisor@operator.example', { method: 'PUT', url: url(t.org.northwind), payload: { domains: 'northwind.example contoso.example' } });
      expect(domain.statusCode).toBe(409);
      // Saving its own domains again is no conflict.
      expect((await t.call('admin@northwind.example', { method: 'PUT', url: url(t.org.contoso), payload: { organization_name: 'Contoso', domains: ['contoso.example'] } })).statusCode).toBe(200);
    });
  });
});
