import { beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '../../../test/support/databases';
import { useTestApp } from '../../../test/support/test-app';
import { factories, uniqueTag, type Cooperation } from '../../../test/support/factories';
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

describe.each(dialects)('organizations API on %s', (dialect) => {
  const t = useTestApp(dialect, { demo: false });
  const make = factories(t);
  /** The operator's staff and a partner's people, who act; each test makes the organizations it changes. */
  let w: Cooperation;
  beforeAll(async () => {
    w = await make.cooperation();
  });
  const url = (id: string) => `/api/organizations/${id}`;
  /** The records of one organization, newest first. */
  const recordsOf = (organizationId: string, reason: string) =>
    t.db.selectFrom('audit_records').selectAll().where('organization_id', '=', organizationId).where('reason', '=', reason).orderBy('record_id', 'desc').execute();
  const lastRecord = async (organizationId: string, reason: string) => (await recordsOf(organizationId, reason))[0];
  const create = (as: string | null, payload: Record<string, unknown>) => t.call(as, { method: 'POST', url: '/api/organizations', payload });
  /** A customer of the shared partner (so its administrator manages it), with an issuer and a member; banned when asked. */
  async function customer(options: { banned?: boolean; trusted?: boolean } = {}) {
    const org = await make.organization({ parent: w.partner, banned: options.banned, trusted: options.trusted });
    return { org, issuer: await make.member(org, { role: 'ISSUER' }), member: await make.member(org, { role: 'MEMBER' }) };
  }
  /** A partner of its own below the operator, its administrator with `scope`, and a customer of it. */
  async function partnerWith(scope: Scope) {
    const partner = await make.organization({ role: 'PARTNER', parent: w.operator });
    const admin = await make.member(partner, { role: 'ADMINISTRATOR', scope });
    const child = await make.organization({ parent: partner, trusted: true });
    return { partner, admin, customer: child };
  }

  describe('who may act where', () => {
    // Per endpoint: no token 401, an unrelated organization 404, a reader without the role 403, the allowed success.
    const cases = [
      { name: 'PUT', method: 'PUT', path: (id: string) => url(id), payload: { address: 'Hafenstraße 1' }, ok: 200, banned: false },
      { name: 'ban', method: 'POST', path: (id: string) => `${url(id)}/ban?note=Unpaid`, ok: 200, banned: false },
      { name: 'unban', method: 'POST', path: (id: string) => `${url(id)}/unban`, ok: 200, banned: true },
    ] as const;
    for (const c of cases) {
      it(`${c.name} an organization`, async () => {
        // Unban acts on a banned customer, the others on one that is not.
        const { org, issuer, member } = await customer({ banned: c.banned });
        const call = (as: string | null, path = c.path(org.id)) => t.call(as, { method: c.method, url: path, payload: 'payload' in c ? c.payload : undefined });
        expect((await call(null)).statusCode).toBe(401);
        expect((await call(w.partnerIssuer.email)).statusCode).toBe(404);
        expect((await call(w.approver.email)).statusCode).toBe(403);
        // While the customer is banned (unban), its own members are shut out altogether.
        if (!c.banned) {
          expect((await call(issuer.email, c.path(w.partner.id))).statusCode).toBe(404);
          expect((await call(member.email)).statusCode).toBe(403);
        } else {
          expect((await call(member.email)).json()).toMatchObject({ redirect: 'AccessError' });
        }
        expect((await call(w.partnerAdmin.email)).statusCode).toBe(c.ok);
      });
    }

    it('creates an organization: 401 without a token, 403 without the role, 400 below a parent one cannot see', async () => {
      const payload = { organization_name: `Wingtip Toys ${uniqueTag()}` };
      expect((await create(null, payload)).statusCode).toBe(401);
      expect((await create(w.partnerIssuer.email, payload)).statusCode).toBe(403);
      const hidden = await create(w.partnerIssuer.email, { ...payload, parent_organization: w.operator.id });
      expect(hidden.statusCode).toBe(400);
      expect(hidden.json()).toMatchObject({ field: 'parent_organization', message: 'Parent organization not found.' });
      const res = await create(w.partnerAdmin.email, payload);
      expect(res.statusCode).toBe(201);
      expect(res.json()).toMatchObject({ organization_name: payload.organization_name, organization_role: 'CUSTOMER', parent_organization: w.partner.id, domains: [] });
      const record = await lastRecord(res.json().organization_id, 'ORGANIZATION_CREATED');
      expect(record).toMatchObject({ organization_id: res.json().organization_id, member_email: w.partnerAdmin.email, message: `Created customer organization ${payload.organization_name}.` });
    });
  });

  describe('bans', () => {
    it("shuts out the banned organization's members at their next call, journals both, and unban restores", async () => {
      const { org, member } = await customer();
      expect((await t.call(member.email, { method: 'GET', url: url(org.id) })).statusCode).toBe(200);
      const ban = await t.call(w.supervisor.email, { method: 'POST', url: `${url(org.id)}/ban?note=${encodeURIComponent(' Contract paused. ')}` });
      expect(ban.statusCode).toBe(200);
      expect(ban.json()).toMatchObject({ ban_note: 'Contract paused.', date_organization_banned: t.clock.now().toISOString() });
      const refused = await t.call(member.email, { method: 'GET', url: url(org.id) });
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toMatchObject({ redirect: 'AccessError' });
      expect(await lastRecord(org.id, 'ORGANIZATION_BANNED')).toMatchObject({ organization_id: org.id, message: `Banned organization ${org.name}: Contract paused.` });
      const again = await t.call(w.supervisor.email, { method: 'POST', url: `${url(org.id)}/ban` });
      expect(again.statusCode).toBe(409);
      expect(again.json().message).toBe(`${org.name} is already banned.`);

      const unban = await t.call(w.supervisor.email, { method: 'POST', url: `${url(org.id)}/unban` });
      expect(unban.json()).toMatchObject({ ban_note: null, date_organization_banned: null });
      expect((await t.call(member.email, { method: 'GET', url: url(org.id) })).statusCode).toBe(200);
      expect(await lastRecord(org.id, 'ORGANIZATION_UNBANNED')).toMatchObject({ organization_id: org.id, member_email: w.supervisor.email });
      expect((await t.call(w.supervisor.email, { method: 'POST', url: `${url(org.id)}/unban` })).statusCode).toBe(409);
    });

    it('never bans the operator organization or the caller\'s own, and limits the note to 1000 characters', async () => {
      const operator = await t.call(w.supervisor.email, { method: 'POST', url: `${url(w.operator.id)}/ban` });
      expect(operator.statusCode).toBe(409);
      expect(operator.json().message).toBe('The operator organization cannot be banned.');
      const own = await t.call(w.partnerAdmin.email, { method: 'POST', url: `${url(w.partner.id)}/ban` });
      expect(own.statusCode).toBe(409);
      expect(own.json().message).toBe('You cannot ban your own organization.');
      const { org } = await customer();
      const long = await t.call(w.supervisor.email, { method: 'POST', url: `${url(org.id)}/ban?note=${'x'.repeat(1001)}` });
      expect(long.statusCode).toBe(400);
      expect(long.json().field).toBe('note');
      const banned = await make.organization({ parent: w.operator, banned: true });
      expect((await t.call(w.supervisor.email, { method: 'POST', url: `${url(banned.id)}/ban` })).statusCode).toBe(409);
      // None of them was banned by the refusals.
      const rows = await t.db.selectFrom('organizations').select(['organization_id', 'date_organization_banned']).where('organization_id', 'in', [w.operator.id, w.partner.id, org.id]).execute();
      expect(rows.map((r) => r.date_organization_banned)).toEqual([null, null, null]);
    });
  });

  describe('role scopes', () => {
    it('lets a partner ADMINISTRATOR with MANAGED scope act on its customers but not on itself', async () => {
      const { partner, admin, customer: child } = await partnerWith('MANAGED');
      expect((await t.call(admin.email, { method: 'PUT', url: url(child.id), payload: { address: 'Managed 1' } })).statusCode).toBe(200);
      expect((await t.call(admin.email, { method: 'PUT', url: url(partner.id), payload: { address: 'Own 1' } })).statusCode).toBe(404);
      expect((await t.call(admin.email, { method: 'POST', url: `${url(partner.id)}/ban` })).statusCode).toBe(404);
      // A new customer below its own organization is managed by it, so MANAGED may create one.
      const created = await create(admin.email, { organization_name: `Managed Child ${uniqueTag()}` });
      expect(created.statusCode).toBe(201);
      expect(created.json().parent_organization).toBe(partner.id);
    });

    it('and with ORGANIZATION scope on itself but not on its customers', async () => {
      const { partner, admin, customer: child } = await partnerWith('ORGANIZATION');
      expect((await t.call(admin.email, { method: 'PUT', url: url(partner.id), payload: { address: 'Own 2' } })).statusCode).toBe(200);
      expect((await t.call(admin.email, { method: 'PUT', url: url(child.id), payload: { address: 'Managed 2' } })).statusCode).toBe(404);
      expect((await t.call(admin.email, { method: 'POST', url: `${url(child.id)}/ban` })).statusCode).toBe(404);
      expect((await create(admin.email, { organization_name: `Organization Child ${uniqueTag()}` })).statusCode).toBe(403);
    });
  });

  describe('create', () => {
    it('normalizes website, domains and text, and defaults the parent to the creator\'s organization', async () => {
      const tag = uniqueTag();
      const res = await create(w.supervisor.email, {
        organization_name: `  Tailspin Toys ${tag} `,
        website: 'tailspin.example',
        logo_url: 'https://cdn.tailspin.example/logo.png',
        address: '  ',
        domains: `Tailspin-${tag}.example, mail.tailspin-${tag}.example  tailspin-${tag}.example`,
      });
      expect(res.statusCode).toBe(201);
      expect(res.json()).toMatchObject({
        organization_name: `Tailspin Toys ${tag}`,
        organization_role: 'CUSTOMER',
        parent_organization: w.operator.id,
        parent_organization_name: w.operator.name,
        website: 'https://tailspin.example',
        logo_url: 'https://cdn.tailspin.example/logo.png',
        address: null,
        domains: [`mail.tailspin-${tag}.example`, `tailspin-${tag}.example`],
        roles: [{ organization_id: w.operator.id, role: 'SUPERVISOR' }],
      });
    });

    it('places a customer below a chosen partner, a partner always below the creator', async () => {
      const { partner, admin } = await partnerWith('COOPERATION');
      const tag = uniqueTag();
      const customer = await create(w.supervisor.email, { organization_name: `Coho Winery ${tag}`, parent_organization: partner.id, domains: [`coho-${tag}.example`] });
      expect(customer.json()).toMatchObject({ parent_organization: partner.id, domains: [`coho-${tag}.example`] });
      const other = await create(w.supervisor.email, { organization_name: `Litware ${tag}`, organization_role: 'PARTNER', parent_organization: partner.id });
      expect(other.json()).toMatchObject({ organization_role: 'PARTNER', parent_organization: w.operator.id });
      // The partner's admin can now read the customer it manages, and not the new partner.
      const list = await t.call(admin.email, { method: 'GET', url: `/api/organizations?filter=${encodeURIComponent(tag)}` });
      expect(list.json().map((o: { organization_name: string }) => o.organization_name)).toEqual([`Coho Winery ${tag}`]);
    });

    it('refuses bad input with 400 naming the field, and duplicates with 409', async () => {
      const { org } = await customer({ trusted: true });
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ organization_name: 'Op2', organization_role: 'OPERATOR' }, 'organization_role'],
        [{ organization_name: '   ' }, 'organization_name'],
        [{}, 'organization_name'],
        [{ organization_name: 'X1', parent_organization: org.id }, 'parent_organization'],
        [{ organization_name: 'X2', parent_organization: 'no-such-organization' }, 'parent_organization'],
        [{ organization_name: 'X3', website: 'not a web address' }, 'website'],
        [{ organization_name: 'X4', logo_url: 'http://insecure.example/logo.png' }, 'logo_url'],
        [{ organization_name: 'X5', domains: 'good.example, bad_domain' }, 'domains'],
        [{ organization_name: 'X6', domains: 42 }, 'domains'],
        [{ organization_name: 'X7', address: 'x'.repeat(1001) }, 'address'],
      ];
      const count = async () => Number((await t.db.selectFrom('organizations').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
      const before = await count();
      for (const [payload, field] of cases) {
        const res = await create(w.supervisor.email, payload);
        expect(res.statusCode, JSON.stringify(payload)).toBe(400);
        expect(res.json().field, JSON.stringify(payload)).toBe(field);
      }
      const customerParent = await create(w.supervisor.email, { organization_name: 'X1', parent_organization: org.id });
      expect(customerParent.json().message).toContain(`${org.name} is a customer organization`);
      const bad = await create(w.supervisor.email, { organization_name: 'X5', domains: 'good.example, bad_domain' });
      expect(bad.json().message).toContain('bad_domain');

      const name = await create(w.supervisor.email, { organization_name: org.name.toUpperCase() });
      expect(name.statusCode).toBe(409);
      expect(name.json().message).toBe(`An organization named ${org.name.toUpperCase()} already exists.`);
      const lookAlike = `Look-alike ${uniqueTag()}`;
      const domain = await create(w.supervisor.email, { organization_name: lookAlike, domains: [org.domain.toUpperCase()] });
      expect(domain.statusCode).toBe(409);
      expect(domain.json().message).toBe(`Another organization already trusts ${org.domain}.`);
      const names = await t.db.selectFrom('organizations').select('organization_name').execute();
      expect(names.map((n) => n.organization_name)).not.toContain(lookAlike);
      expect(await count()).toBe(before);
    });
  });

  describe('save', () => {
    it('saves the fields, journals what changed, and takes back the organization as GET returns it', async () => {
      const { org } = await customer({ trusted: true });
      const current = (await t.call(w.supervisor.email, { method: 'GET', url: url(org.id) })).json();
      expect(current.domains).toEqual([org.domain]);
      const res = await t.call(w.supervisor.email, {
        method: 'PUT',
        url: url(org.id),
        payload: { ...current, website: 'www.contoso.example', domains: [org.domain, org.domain.toUpperCase(), `eu.${org.domain}`] },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ organization_name: org.name, website: 'https://www.contoso.example', domains: [org.domain, `eu.${org.domain}`] });
      expect(await lastRecord(org.id, 'ORGANIZATION_SAVED')).toMatchObject({
        organization_id: org.id,
        message: `Saved organization ${org.name} (website, domains).`,
      });
      const cleared = await t.call(w.supervisor.email, { method: 'PUT', url: url(org.id), payload: { website: '', domains: org.domain } });
      expect(cleared.json()).toMatchObject({ website: null, domains: [org.domain], address: current.address });
    });

    it('shows a change of the domains alone in the organization list at once, whoever wrote it', async () => {
      const { org } = await customer({ trusted: true });
      const listed = async () => {
        const res = await t.call(w.supervisor.email, { method: 'GET', url: `/api/organizations?filter=${encodeURIComponent(org.name)}` });
        return res.json().find((o: { organization_id: string }) => o.organization_id === org.id)?.domains;
      };
      // Asked twice: the second answer is the page kept for the organizations' versions.
      expect(await listed()).toEqual([org.domain]);
      expect(await listed()).toEqual([org.domain]);
      const saved = await t.call(w.supervisor.email, { method: 'PUT', url: url(org.id), payload: { domains: [org.domain, `eu.${org.domain}`] } });
      expect(saved.statusCode).toBe(200);
      expect(await listed()).toEqual([org.domain, `eu.${org.domain}`]);
      // Another program (psql, a script) writing the table directly.
      await t.db.deleteFrom('organization_domains').where('organization_id', '=', org.id).where('domain', '=', `eu.${org.domain}`).execute();
      expect(await listed()).toEqual([org.domain]);
    });

    it('answers GET with the organization as it is after any write, whoever wrote it, and with the caller\'s own roles', async () => {
      const { org } = await customer({ trusted: true });
      const get = async (as = w.supervisor.email) => (await t.call(as, { method: 'GET', url: url(org.id) })).json();
      // Asked twice: the second answer is the one kept for the organization's version.
      expect(await get()).toMatchObject({ website: null, domains: [org.domain] });
      expect(await get()).toMatchObject({ website: null, domains: [org.domain] });
      await t.db.updateTable('organizations').set({ website: 'https://direct.example' }).where('organization_id', '=', org.id).execute();
      expect(await get()).toMatchObject({ website: 'https://direct.example', domains: [org.domain] });
      await t.db.insertInto('organization_domains').values({ organization_id: org.id, domain: `direct.${org.domain}` }).execute();
      expect((await get()).domains).toEqual([`direct.${org.domain}`, org.domain].sort());
      // Another member reading the same organization gets their own roles and abilities, not the kept ones.
      const admin = await make.member(org, { role: 'ADMINISTRATOR', scope: 'ORGANIZATION' });
      const theirs = await get(admin.email);
      expect(theirs.roles).toEqual([{ organization_id: org.id, role: 'ADMINISTRATOR', scope: 'ORGANIZATION' }]);
      expect((await get()).roles).not.toEqual(theirs.roles);
    });

    it('refuses unknown fields with 400 naming them, and journals no save that changes nothing', async () => {
      const { org } = await customer({ trusted: true });
      const records = async () => Number((await t.db.selectFrom('audit_records').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
      const before = await records();
      const stray = await t.call(w.supervisor.email, { method: 'PUT', url: url(org.id), payload: { colour: 'red', organisation_name: 'Typo' } });
      expect(stray.statusCode).toBe(400);
      expect(stray.json()).toMatchObject({ field: 'colour', message: "Unknown fields 'colour', 'organisation_name' in the body: nothing was changed." });
      const current = (await t.call(w.supervisor.email, { method: 'GET', url: url(org.id) })).json();
      const same = await t.call(w.supervisor.email, { method: 'PUT', url: url(org.id), payload: current });
      expect(same.statusCode).toBe(200);
      expect(same.json()).toEqual(current);
      expect((await t.call(w.supervisor.email, { method: 'PUT', url: url(org.id), payload: {} })).statusCode).toBe(200);
      expect(await records()).toBe(before);
    });

    it("lets nobody trust a domain whose members belong to an organization they do not manage", async () => {
      // An operator of its own, whose staff's email domain is its domain.
      const operator = await make.organization({ role: 'OPERATOR' });
      const supervisor = await make.member(operator, { role: 'SUPERVISOR', scope: 'COOPERATION' });
      const { org } = await customer({ trusted: true });
      // A partner administrator tries to capture the operator's staff domain for a new customer.
      const lookAlike = `Operator Look-alike ${uniqueTag()}`;
      const capture = await create(w.partnerAdmin.email, { organization_name: lookAlike, domains: [operator.domain] });
      expect(capture.statusCode).toBe(403);
      expect(capture.json().message).toBe(`${operator.domain} is the email domain of members of an organization you do not manage, so you cannot trust it.`);
      expect(await t.db.selectFrom('organizations').select('organization_id').where('organization_name', '=', lookAlike).executeTakeFirst()).toBeUndefined();
      const onSave = await t.call(w.partnerAdmin.email, { method: 'PUT', url: url(org.id), payload: { domains: [org.domain, operator.domain.toUpperCase()] } });
      expect(onSave.statusCode).toBe(403);
      expect((await t.call(w.partnerAdmin.email, { method: 'GET', url: url(org.id) })).json().domains).toEqual([org.domain]);
      // Its own people's domain is its to give: the partner's members are all the partner's.
      const own = await create(w.partnerAdmin.email, { organization_name: `Partner Lab ${uniqueTag()}`, domains: [`lab.${w.partner.domain}`] });
      expect(own.statusCode).toBe(201);
      // The operator's supervisor sees every member, so may trust any domain nobody else trusts.
      const trusted = await t.call(supervisor.email, { method: 'PUT', url: url(operator.id), payload: { domains: [operator.domain] } });
      expect(trusted.statusCode).toBe(200);
      expect(trusted.json().domains).toEqual([operator.domain]);
    });

    it('keeps the role, and moves only customers to another parent', async () => {
      const { partner, admin, customer: child } = await partnerWith('COOPERATION');
      const role = await t.call(w.supervisor.email, { method: 'PUT', url: url(child.id), payload: { organization_role: 'PARTNER' } });
      expect(role.statusCode).toBe(400);
      expect(role.json().field).toBe('organization_role');
      // A partner's parent is not chosen: the field is ignored.
      const kept = await t.call(w.supervisor.email, { method: 'PUT', url: url(partner.id), payload: { organization_role: 'PARTNER', parent_organization: child.id } });
      expect(kept.statusCode).toBe(200);
      expect(kept.json().parent_organization).toBe(w.operator.id);

      const moved = await t.call(w.supervisor.email, { method: 'PUT', url: url(child.id), payload: { parent_organization: w.operator.id } });
      expect(moved.json()).toMatchObject({ parent_organization: w.operator.id, parent_organization_name: w.operator.name });
      // The partner no longer manages its former customer.
      expect((await t.call(admin.email, { method: 'GET', url: url(child.id) })).statusCode).toBe(404);
      const back = await t.call(w.supervisor.email, { method: 'PUT', url: url(child.id), payload: { parent_organization: partner.id } });
      expect(back.json().parent_organization).toBe(partner.id);
      expect((await t.call(admin.email, { method: 'GET', url: url(child.id) })).statusCode).toBe(200);
      // The partner's admin cannot move its customer below organizations it cannot see.
      expect((await t.call(admin.email, { method: 'PUT', url: url(child.id), payload: { parent_organization: w.operator.id } })).statusCode).toBe(400);
      expect((await t.call(admin.email, { method: 'PUT', url: url(child.id), payload: { parent_organization: w.banned.id } })).statusCode).toBe(400);
    });

    it('refuses a name or a domain another organization has', async () => {
      const { partner, admin, customer: child } = await partnerWith('COOPERATION');
      const name = await t.call(admin.email, { method: 'PUT', url: url(child.id), payload: { organization_name: partner.name.toLowerCase() } });
      expect(name.statusCode).toBe(409);
      const domain = await t.call(w.supervisor.email, { method: 'PUT', url: url(partner.id), payload: { domains: `${partner.domain} ${child.domain}` } });
      expect(domain.statusCode).toBe(409);
      // Saving its own domains again is no conflict.
      expect((await t.call(admin.email, { method: 'PUT', url: url(child.id), payload: { organization_name: child.name, domains: [child.domain] } })).statusCode).toBe(200);
    });
  });
});
