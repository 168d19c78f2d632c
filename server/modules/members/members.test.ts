import { describe, expect, it } from 'vitest';
import type { InjectOptions } from 'fastify';
import { testDialects } from '../../../test/support/databases';
import { useTestApp, type TestApp } from '../../../test/support/test-app';
import type { Scope } from '../../../common/enums';

const dialects = await testDialects();

/** Sets the scope of a demo account's role in its own organization. */
async function setScope(t: TestApp, email: string, scope: Scope) {
  const member = t.db.selectFrom('members').select('member_id').where('member_email', '=', email);
  await t.db.updateTable('role_assignments').set({ scope }).where('member_id', 'in', member).execute();
}

describe.each(dialects)('members and roles API on %s', (dialect) => {
  const t = useTestApp(dialect);
  const idOf = async (email: string) =>
    (await t.db.selectFrom('members').select('member_id').where('member_email', '=', email).executeTakeFirstOrThrow()).member_id;
  const memberUrl = async (organization: string, email: string) => `/api/organizations/${t.org[organization]}/members/${await idOf(email)}`;
  const lastRecord = (reason: string) =>
    t.db.selectFrom('audit_records').selectAll().where('reason', '=', reason).orderBy('record_id', 'desc').executeTakeFirstOrThrow();
  /** A person admitted through Contoso's trusted domain, as a throw-away member. */
  const newcomer = async (email: string) => {
    expect((await t.call(email, { method: 'GET', url: '/api/auth/callback' })).statusCode).toBe(200);
    return memberUrl('contoso', email);
  };

  describe('who may act where', () => {
    interface Case { name: string; method: InjectOptions['method']; suffix: string; payload?: object; write: boolean; ok: number; target?: string }
    const cases: Case[] = [
      { name: 'list members', method: 'GET', suffix: '', write: false, ok: 200 },
      { name: 'read a member', method: 'GET', suffix: '/{m}', write: false, ok: 200 },
      { name: 'read roles', method: 'GET', suffix: '/{m}/roles', write: false, ok: 200 },
      { name: 'test sign-in status', method: 'GET', suffix: '/{m}/status?email=someone@contoso.example', write: false, ok: 200 },
      { name: 'save a member', method: 'PUT', suffix: '/{m}', payload: { job_role: 'Network engineer' }, write: true, ok: 200 },
      { name: 'ban a member', method: 'POST', suffix: '/{m}/ban?note=Left', write: true, ok: 200 },
      { name: 'unban a member', method: 'POST', suffix: '/{m}/unban', write: true, ok: 200 },
      { name: 'assign a role', method: 'POST', suffix: '/{m}/roles/assign?role=ISSUER&scope=ORGANIZATION', write: true, ok: 200 },
      { name: 'unassign a role', method: 'POST', suffix: '/{m}/roles/unassign?role=ISSUER', write: true, ok: 200 },
      { name: 'remove a member', method: 'DELETE', suffix: '/{m}', write: true, ok: 204, target: 'leaver@contoso.example' },
    ];
    for (const c of cases) {
      it(`${c.name}: 401, 404 across tenants, ${c.write ? '403 without the role, ' : ''}${c.ok} when allowed`, async () => {
        const target = c.target ?? 'member@contoso.example';
        if (c.target) await newcomer(c.target);
        const path = async (organization: string, email: string) =>
          `/api/organizations/${t.org[organization]}/members${c.suffix.replace('{m}', await idOf(email))}`;
        const contoso = await path('contoso', target);
        const call = (as: string | null, url: string) => t.call(as, { method: c.method, url, payload: c.payload });
        expect((await call(null, contoso)).statusCode).toBe(401);
        expect((await call('issuer@northwind.example', contoso)).statusCode).toBe(404);
        expect((await call('issuer@contoso.example', await path('northwind', 'issuer@northwind.example'))).statusCode).toBe(404);
        if (c.write) {
          expect((await call('issuer@contoso.example', contoso)).statusCode).toBe(403);
          expect((await call('approver@operator.example', contoso)).statusCode).toBe(403);
        } else {
          expect((await call('issuer@contoso.example', contoso)).statusCode).toBe(200);
        }
        expect((await call('admin@northwind.example', contoso)).statusCode).toBe(c.ok);
      });
    }

    it('hides a member behind the wrong organization in the path', async () => {
      const wrong = `/api/organizations/${t.org.northwind}/members/${await idOf('member@contoso.example')}`;
      expect((await t.call('supervisor@operator.example', { method: 'GET', url: wrong })).statusCode).toBe(404);
      expect((await t.call('supervisor@operator.example', { method: 'POST', url: `${wrong}/ban` })).statusCode).toBe(404);
      expect((await t.call('supervisor@operator.example', { method: 'GET', url: `/api/organizations/${t.org.contoso}/members/nobody` })).statusCode).toBe(404);
    });

    it('GET /api/members: 401 without a token, and only rows of readable organizations', async () => {
      expect((await t.call(null, { method: 'GET', url: '/api/members' })).statusCode).toBe(401);
      const organizations = async (as: string) =>
        [...new Set(((await t.call(as, { method: 'GET', url: '/api/members' })).json() as Array<{ organization_name: string }>).map((m) => m.organization_name))].sort();
      expect(await organizations('issuer@contoso.example')).toEqual(['Contoso']);
      expect(await organizations('admin@northwind.example')).toEqual(['Contoso', 'Northwind Networks']);
      expect(await organizations('supervisor@operator.example')).toEqual(['Contoso', 'Fabrikam', 'Northwind Networks', 'Operator']);
    });
  });

  describe('bans and removal', () => {
    it('shuts a banned member out at their very next call; unban restores; both journaled', async () => {
      const url = await memberUrl('contoso', 'member@contoso.example');
      expect((await t.call('member@contoso.example', { method: 'GET', url })).statusCode).toBe(200);
      const ban = await t.call('supervisor@operator.example', { method: 'POST', url: `${url}/ban?note=${encodeURIComponent('Laptop stolen')}` });
      expect(ban.statusCode).toBe(200);
      expect(ban.json()).toMatchObject({ ban_note: 'Laptop stolen', date_member_banned: t.clock.now().toISOString() });
      const refused = await t.call('member@contoso.example', { method: 'GET', url });
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toMatchObject({ message: 'Your membership is banned.', redirect: 'AccessError' });
      expect(await lastRecord('MEMBER_BANNED')).toMatchObject({ organization_id: t.org.contoso, message: 'Banned member member@contoso.example: Laptop stolen' });
      expect((await t.call('supervisor@operator.example', { method: 'POST', url: `${url}/ban` })).statusCode).toBe(409);
      const listed = await t.call('supervisor@operator.example', { method: 'GET', url: '/api/members?filter=max' });
      expect(listed.json()).toEqual([expect.objectContaining({ member_email: 'member@contoso.example', date_member_banned: expect.any(String) })]);

      expect((await t.call('supervisor@operator.example', { method: 'POST', url: `${url}/unban` })).json()).toMatchObject({ date_member_banned: null, ban_note: null });
      expect((await t.call('member@contoso.example', { method: 'GET', url })).statusCode).toBe(200);
      expect(await lastRecord('MEMBER_UNBANNED')).toMatchObject({ organization_id: t.org.contoso, member_email: 'supervisor@operator.example' });
      expect((await t.call('supervisor@operator.example', { method: 'POST', url: `${url}/unban` })).statusCode).toBe(409);
      const long = await t.call('supervisor@operator.example', { method: 'POST', url: `${url}/ban?note=${'x'.repeat(1001)}` });
      expect(long.statusCode).toBe(400);
      expect(long.json().field).toBe('note');
    });

    it('refuses to ban or remove oneself', async () => {
      const url = await memberUrl('northwind', 'admin@northwind.example');
      const ban = await t.call('admin@northwind.example', { method: 'POST', url: `${url}/ban` });
      expect(ban.statusCode).toBe(409);
      expect(ban.json().message).toBe('You cannot ban yourself.');
      expect((await t.call('admin@northwind.example', { method: 'DELETE', url })).json().message).toBe('You cannot remove yourself.');
    });

    it('removes a member with their roles, journals it, and lets the trusted domain admit them again', async () => {
      const url = await newcomer('gone@contoso.example');
      const id = await idOf('gone@contoso.example');
      const owned = await t.db.selectFrom('certificates').select('distinguished_name').where('organization_id', '=', t.org.contoso).executeTakeFirstOrThrow();
      await t.db.updateTable('certificates').set({ owner_member_id: id }).where('distinguished_name', '=', owned.distinguished_name).execute();
      expect((await t.call('supervisor@operator.example', { method: 'DELETE', url })).statusCode).toBe(204);
      expect((await t.call('supervisor@operator.example', { method: 'GET', url })).statusCode).toBe(404);
      expect(await t.db.selectFrom('role_assignments').select('role').where('member_id', '=', id).execute()).toEqual([]);
      // Their certificates stay with the organization, without an owner.
      const certificate = await t.db.selectFrom('certificates').select('owner_member_id').where('distinguished_name', '=', owned.distinguished_name).executeTakeFirstOrThrow();
      expect(certificate.owner_member_id).toBeNull();
      expect(await lastRecord('MEMBER_REMOVED')).toMatchObject({ organization_id: t.org.contoso, message: 'Removed member gone@contoso.example.' });
      expect((await t.call('gone@contoso.example', { method: 'GET', url: '/api/auth/callback' })).statusCode).toBe(200);
    });
  });

  describe('the last administrator', () => {
    it('keeps an organization with at least one active ADMINISTRATOR or SUPERVISOR', async () => {
      const admin = await memberUrl('northwind', 'admin@northwind.example');
      const issuer = await memberUrl('northwind', 'issuer@northwind.example');
      const as = 'supervisor@operator.example';
      for (const [method, url] of [['POST', `${admin}/ban`], ['DELETE', admin], ['POST', `${admin}/roles/unassign?role=ADMINISTRATOR`]] as const) {
        const res = await t.call(as, { method, url });
        expect(res.statusCode, `${method} ${url}`).toBe(409);
        expect(res.json().message).toBe('Northwind Networks would be left without an administrator or supervisor; give another member that role first.');
      }
      // A second administrator makes it possible, unless that one is banned.
      expect((await t.call(as, { method: 'POST', url: `${issuer}/roles/assign?role=ADMINISTRATOR&scope=ORGANIZATION` })).statusCode).toBe(200);
      expect((await t.call(as, { method: 'POST', url: `${issuer}/ban` })).statusCode).toBe(200);
      expect((await t.call(as, { method: 'POST', url: `${admin}/roles/unassign?role=ADMINISTRATOR` })).statusCode).toBe(409);
      expect((await t.call(as, { method: 'POST', url: `${issuer}/unban` })).statusCode).toBe(200);
      expect((await t.call(as, { method: 'POST', url: `${admin}/roles/unassign?role=ADMINISTRATOR` })).statusCode).toBe(200);
      // And back as before.
      expect((await t.call(as, { method: 'POST', url: `${admin}/roles/assign?role=ADMINISTRATOR&scope=COOPERATION` })).statusCode).toBe(200);
      expect((await t.call(as, { method: 'POST', url: `${issuer}/roles/unassign?role=ADMINISTRATOR` })).statusCode).toBe(200);
      // Contoso has no administrator of its own (Northwind runs it): removing members there is not held up.
      const url = await newcomer('temp@contoso.example');
      expect((await t.call(as, { method: 'DELETE', url })).statusCode).toBe(204);
    });
  });

  describe('roles', () => {
    it('assigns only roles the member\'s organization allows, with both role and scope', async () => {
      const url = await memberUrl('contoso', 'member@contoso.example');
      for (const role of ['APPROVER', 'SUPERVISOR', 'DEVOPS']) {
        const res = await t.call('supervisor@operator.example', { method: 'POST', url: `${url}/roles/assign?role=${role}&scope=ORGANIZATION` });
        expect(res.statusCode, role).toBe(400);
        expect(res.json()).toMatchObject({ field: 'role', message: `${role} can be assigned only to members of the operator organization.` });
      }
      const noScope = await t.call('supervisor@operator.example', { method: 'POST', url: `${url}/roles/assign?role=ISSUER` });
      expect(noScope.json()).toMatchObject({ field: 'scope' });
      expect((await t.call('supervisor@operator.example', { method: 'POST', url: `${url}/roles/assign?role=OWNER&scope=ORGANIZATION` })).json().field).toBe('role');
      const devops = await memberUrl('operator', 'devops@operator.example');
      const res = await t.call('supervisor@operator.example', { method: 'POST', url: `${devops}/roles/assign?role=APPROVER&scope=COOPERATION` });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual(expect.arrayContaining([{ organization_id: t.org.operator, organization_name: 'Operator', role: 'APPROVER', scope: 'COOPERATION' }]));
    });

    it('changes the scope of a role held, refuses the same assignment twice, and journals each', async () => {
      const url = await memberUrl('contoso', 'member@contoso.example');
      const as = 'admin@northwind.example';
      const first = await t.call(as, { method: 'POST', url: `${url}/roles/assign?role=ISSUER&scope=ORGANIZATION` });
      expect(first.json()).toEqual(expect.arrayContaining([expect.objectContaining({ role: 'ISSUER', scope: 'ORGANIZATION', organization_name: 'Contoso' })]));
      expect(await lastRecord('ROLE_ASSIGNED')).toMatchObject({ organization_id: t.org.contoso, member_email: as, message: 'Assigned ISSUER (ORGANIZATION) to member@contoso.example.' });
      const twice = await t.call(as, { method: 'POST', url: `${url}/roles/assign?role=ISSUER&scope=ORGANIZATION` });
      expect(twice.statusCode).toBe(409);
      const scope = await t.call(as, { method: 'POST', url: `${url}/roles/assign?role=ISSUER&scope=COOPERATION` });
      expect(scope.json()).toEqual(expect.arrayContaining([expect.objectContaining({ role: 'ISSUER', scope: 'COOPERATION' })]));
      expect((await lastRecord('ROLE_ASSIGNED')).message).toBe('Changed the scope of ISSUER of member@contoso.example from ORGANIZATION to COOPERATION.');
      const removed = await t.call(as, { method: 'POST', url: `${url}/roles/unassign?role=ISSUER` });
      expect(removed.json()).toEqual([expect.objectContaining({ role: 'MEMBER' })]);
      expect(await lastRecord('ROLE_UNASSIGNED')).toMatchObject({ organization_id: t.org.contoso, message: 'Unassigned ISSUER from member@contoso.example.' });
      const none = await t.call(as, { method: 'POST', url: `${url}/roles/unassign?role=ISSUER` });
      expect(none.statusCode).toBe(404);
      expect(none.json().message).toBe('member@contoso.example has no role ISSUER in Contoso.');
    });

    it('lists assignments of other organizations but unassigns only those of the path organization', async () => {
      const id = await idOf('member@contoso.example');
      await t.db.insertInto('role_assignments').values({ member_id: id, organization_id: t.org.northwind, role: 'ISSUER', scope: 'ORGANIZATION' }).execute();
      try {
        const url = await memberUrl('contoso', 'member@contoso.example');
        const roles = await t.call('supervisor@operator.example', { method: 'GET', url: `${url}/roles` });
        expect(roles.json()).toEqual([
          { organization_id: t.org.contoso, organization_name: 'Contoso', role: 'MEMBER', scope: 'ORGANIZATION' },
          { organization_id: t.org.northwind, organization_name: 'Northwind Networks', role: 'ISSUER', scope: 'ORGANIZATION' },
        ]);
        // Someone who cannot read Northwind does not learn of the assignment there.
        const seen = await t.call('issuer@contoso.example', { method: 'GET', url: `${url}/roles` });
        expect(seen.json()).toEqual([expect.objectContaining({ organization_name: 'Contoso', role: 'MEMBER' })]);
        const res = await t.call('supervisor@operator.example', { method: 'POST', url: `${url}/roles/unassign?role=ISSUER` });
        expect(res.statusCode).toBe(409);
        expect(res.json().message).toBe('The role ISSUER of member@contoso.example belongs to another organization and cannot be unassigned here.');
      } finally {
        await t.db.deleteFrom('role_assignments').where('member_id', '=', id).where('organization_id', '=', t.org.northwind).execute();
      }
    });

    it('hands out no scope beyond the assigner\'s own reach', async () => {
      await setScope(t, 'admin@northwind.example', 'ORGANIZATION');
      try {
        const url = await memberUrl('northwind', 'issuer@northwind.example');
        const wide = await t.call('admin@northwind.example', { method: 'POST', url: `${url}/roles/assign?role=ADMINISTRATOR&scope=COOPERATION` });
        expect(wide.statusCode).toBe(403);
        expect(wide.json().message).toContain('with a scope reaching the organizations below Northwind Networks');
        expect((await t.call('admin@northwind.example', { method: 'POST', url: `${url}/roles/assign?role=MEMBER&scope=ORGANIZATION` })).statusCode).toBe(200);
        expect((await t.call('admin@northwind.example', { method: 'POST', url: `${url}/roles/unassign?role=MEMBER` })).statusCode).toBe(200);
      } finally {
        await setScope(t, 'admin@northwind.example', 'COOPERATION');
      }
    });
  });

  describe('who may grant which role (no self-escalation)', () => {
    const roleNames = async (email: string) =>
      (await t.db.selectFrom('role_assignments as r').innerJoin('members as m', 'm.member_id', 'r.member_id').select('r.role').where('m.member_email', '=', email).execute()).map((r) => r.role).sort();

    it('refuses anyone giving themselves a role, whatever they hold, and changes nothing', async () => {
      for (const email of ['admin@operator.example', 'supervisor@operator.example', 'admin@northwind.example']) {
        const before = await roleNames(email);
        const self = await memberUrl(email.endsWith('operator.example') ? 'operator' : 'northwind', email);
        for (const role of ['SUPERVISOR', 'DEVOPS', 'APPROVER', 'ISSUER']) {
          const res = await t.call(email, { method: 'POST', url: `${self}/roles/assign?role=${role}&scope=COOPERATION` });
          expect([400, 403], `${email} gives itself ${role}`).toContain(res.statusCode);
        }
        expect(await roleNames(email)).toEqual(before);
      }
      // The operator administrator of the issue cannot then reach the gateway's archive.
      expect((await t.call('admin@operator.example', { method: 'GET', url: '/api/piston/certs' })).statusCode).toBe(403);
    });

    it('lets an ADMINISTRATOR grant only ADMINISTRATOR, ISSUER and MEMBER; a SUPERVISOR any role', async () => {
      const approver = await memberUrl('operator', 'approver@operator.example');
      for (const role of ['SUPERVISOR', 'DEVOPS', 'APPROVER']) {
        const res = await t.call('admin@operator.example', { method: 'POST', url: `${approver}/roles/assign?role=${role}&scope=ORGANIZATION` });
        expect(res.statusCode, `ADMINISTRATOR grants ${role}`).toBe(403);
        expect(res.json().message).toContain(`grant or take away ${role}`);
      }
      expect((await t.call('admin@operator.example', { method: 'POST', url: `${approver}/roles/assign?role=ISSUER&scope=ORGANIZATION` })).statusCode).toBe(200);
      expect((await t.call('admin@operator.example', { method: 'POST', url: `${approver}/roles/unassign?role=ISSUER` })).statusCode).toBe(200);
      // Nor may it take away what it could not give: the supervisor keeps SUPERVISOR.
      const supervisor = await memberUrl('operator', 'supervisor@operator.example');
      expect((await t.call('admin@operator.example', { method: 'POST', url: `${supervisor}/roles/unassign?role=SUPERVISOR` })).statusCode).toBe(403);
      expect(await roleNames('supervisor@operator.example')).toContain('SUPERVISOR');
      // A SUPERVISOR grants DEVOPS, and takes it away again.
      expect((await t.call('supervisor@operator.example', { method: 'POST', url: `${approver}/roles/assign?role=DEVOPS&scope=ORGANIZATION` })).statusCode).toBe(200);
      expect((await t.call('supervisor@operator.example', { method: 'POST', url: `${approver}/roles/unassign?role=DEVOPS` })).statusCode).toBe(200);
    });
  });

  describe('role scopes of a partner ADMINISTRATOR', () => {
    it('MANAGED: acts on members of its customers, not on its own', async () => {
      await setScope(t, 'admin@northwind.example', 'MANAGED');
      try {
        const customer = await memberUrl('contoso', 'issuer@contoso.example');
        const own = await memberUrl('northwind', 'issuer@northwind.example');
        expect((await t.call('admin@northwind.example', { method: 'PUT', url: customer, payload: { job_role: 'Managed' } })).statusCode).toBe(200);
        expect((await t.call('admin@northwind.example', { method: 'PUT', url: own, payload: { job_role: 'Own' } })).statusCode).toBe(404);
        expect((await t.call('admin@northwind.example', { method: 'POST', url: `${own}/ban` })).statusCode).toBe(404);
      } finally {
        await setScope(t, 'admin@northwind.example', 'COOPERATION');
      }
    });

    it('ORGANIZATION: acts on its own members, not on its customers\'', async () => {
      await setScope(t, 'admin@northwind.example', 'ORGANIZATION');
      try {
        const customer = await memberUrl('contoso', 'issuer@contoso.example');
        const own = await memberUrl('northwind', 'issuer@northwind.example');
        expect((await t.call('admin@northwind.example', { method: 'PUT', url: own, payload: { job_role: 'Own' } })).statusCode).toBe(200);
        expect((await t.call('admin@northwind.example', { method: 'POST', url: `${own}/ban` })).statusCode).toBe(200);
        expect((await t.call('issuer@northwind.example', { method: 'GET', url: own })).statusCode).toBe(403);
        expect((await t.call('admin@northwind.example', { method: 'POST', url: `${own}/unban` })).statusCode).toBe(200);
        expect((await t.call('issuer@northwind.example', { method: 'GET', url: own })).statusCode).toBe(200);
        expect((await t.call('admin@northwind.example', { method: 'PUT', url: customer, payload: { job_role: 'Managed' } })).statusCode).toBe(404);
      } finally {
        await setScope(t, 'admin@northwind.example', 'COOPERATION');
      }
    });
  });

  describe('save', () => {
    it('saves contact data, journals the changed fields, and keeps the email read-only', async () => {
      const url = await memberUrl('contoso', 'issuer@contoso.example');
      const current = (await t.call('supervisor@operator.example', { method: 'GET', url })).json();
      const res = await t.call('supervisor@operator.example', {
        method: 'PUT',
        url,
        payload: { ...current, member_email: 'Issuer@Contoso.example', name: ' Isla Contoso-Berg ', mobile_phone: '+49 (40) 123-456 ext. 7', office_phone: '', address: 'Pier 7' },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ name: 'Isla Contoso-Berg', mobile_phone: '+49 (40) 123-456 ext. 7', office_phone: null, address: 'Pier 7', member_email: 'issuer@contoso.example', organization_name: 'Contoso' });
      expect((await lastRecord('MEMBER_SAVED')).message).toBe('Saved member issuer@contoso.example (name, mobile_phone, address).');
      const cases: Array<[object, string]> = [
        [{ member_email: 'other@contoso.example' }, 'member_email'],
        [{ name: '  ' }, 'name'],
        [{ mobile_phone: 'call me maybe' }, 'mobile_phone'],
        [{ job_role: 'x'.repeat(201) }, 'job_role'],
      ];
      for (const [payload, field] of cases) {
        const bad = await t.call('supervisor@operator.example', { method: 'PUT', url, payload });
        expect(bad.statusCode, field).toBe(400);
        expect(bad.json().field).toBe(field);
      }
      expect((await t.call('supervisor@operator.example', { method: 'GET', url })).json().member_email).toBe('issuer@contoso.example');
    });
  });

  describe('lists', () => {
    it('filters by name or email, case-insensitively, pages and tells the total', async () => {
      const base = `/api/organizations/${t.org.contoso}/members`;
      const emails = async (query: string, url = base) =>
        ((await t.call('member@contoso.example', { method: 'GET', url: `${url}${query}` })).json() as Array<{ member_email: string }>).map((m) => m.member_email);
      expect(await emails('?filter=MAX')).toEqual(['member@contoso.example']);
      expect(await emails('?filter=ISSUER@')).toEqual(['issuer@contoso.example']);
      expect(await emails('?filter=%25')).toEqual([]);
      const page = await t.call('member@contoso.example', { method: 'GET', url: `${base}?limit=1&offset=1` });
      expect(page.json()).toHaveLength(1);
      const total = Number(page.headers['x-total-count']);
      expect(total).toBe((await emails('')).length);
      expect(total).toBeGreaterThan(2);
      expect((await t.call('member@contoso.example', { method: 'GET', url: `${base}?limit=0` })).json().field).toBe('limit');
      const all = await t.call('supervisor@operator.example', { method: 'GET', url: '/api/members?filter=northwind.example' });
      expect(all.json().map((m: { member_email: string; organization_name: string }) => [m.member_email, m.organization_name])).toEqual([
        ['issuer@northwind.example', 'Northwind Networks'],
        ['admin@northwind.example', 'Northwind Networks'],
      ]);
      expect(all.headers['x-total-count']).toBe('2');
    });
  });

  describe('sign-in status', () => {
    const status = async (as: string, email?: string) => {
      const url = `${await memberUrl('contoso', 'member@contoso.example')}/status${email ? `?email=${encodeURIComponent(email)}` : ''}`;
      return t.call(as, { method: 'GET', url });
    };

    it('says whether and how a person can sign in', async () => {
      const expectations: Array<[string | undefined, string, boolean, string | null, RegExp]> = [
        [undefined, 'MEMBER', true, 'Contoso', /member@contoso.example signs in as a member of Contoso/],
        ['Someone.New@contoso.example', 'TRUSTED_DOMAIN', true, 'Contoso', /join Contoso as MEMBER through the trusted domain contoso.example/],
        ['member@fabrikam.example', 'BANNED_ORGANIZATION', false, 'Fabrikam', /Fabrikam, which is banned/],
        ['stranger@unknown.example', 'UNKNOWN', false, null, /no organization trusts unknown.example/],
      ];
      for (const [email, code, canSignIn, organization, message] of expectations) {
        const res = await status('supervisor@operator.example', email);
        expect(res.statusCode, email).toBe(200);
        expect(res.json()).toMatchObject({ status: code, can_sign_in: canSignIn, organization_name: organization, severity: canSignIn ? 'INFO' : 'WARNING' });
        expect(res.json().message).toMatch(message);
      }
      expect((await status('supervisor@operator.example', 'someone.new@contoso.example')).json().email).toBe('someone.new@contoso.example');
    });

    it('tells of banned members and of domains trusted twice', async () => {
      await t.db.updateTable('members').set({ date_member_banned: t.clock.now().toISOString() }).where('member_email', '=', 'issuer@contoso.example').execute();
      await t.db.insertInto('organization_domains').values({ organization_id: t.org.northwind, domain: 'shared.example' }).execute();
      await t.db.insertInto('organization_domains').values({ organization_id: t.org.fabrikam, domain: 'shared.example' }).execute();
      try {
        expect((await status('supervisor@operator.example', 'issuer@contoso.example')).json()).toMatchObject({ status: 'BANNED_MEMBER', can_sign_in: false });
        expect((await status('supervisor@operator.example', 'a@shared.example')).json()).toMatchObject({ status: 'AMBIGUOUS_DOMAIN', can_sign_in: false });
      } finally {
        await t.db.updateTable('members').set({ date_member_banned: null }).where('member_email', '=', 'issuer@contoso.example').execute();
        await t.db.deleteFrom('organization_domains').where('domain', '=', 'shared.example').execute();
      }
    });

    it('names only organizations the caller can read, and wants an email address', async () => {
      const res = await status('member@contoso.example', 'admin@operator.example');
      expect(res.json()).toMatchObject({ status: 'UNKNOWN', can_sign_in: false, organization_name: null, message: 'admin@operator.example does not sign in to any organization you can see.' });
      // Nor does it tell that someone is a banned member of another tenant (issue 9, defect 7).
      await t.db.updateTable('members').set({ date_member_banned: t.clock.now().toISOString() }).where('member_email', '=', 'issuer@northwind.example').execute();
      try {
        const banned = (await status('member@contoso.example', 'issuer@northwind.example')).json();
        expect(banned).toMatchObject({ status: 'UNKNOWN', organization_name: null });
        expect(banned.message).not.toMatch(/banned|Northwind/);
        expect((await status('supervisor@operator.example', 'issuer@northwind.example')).json()).toMatchObject({ status: 'BANNED_MEMBER', organization_name: 'Northwind Networks' });
      } finally {
        await t.db.updateTable('members').set({ date_member_banned: null }).where('member_email', '=', 'issuer@northwind.example').execute();
      }
      const bad = await status('member@contoso.example', 'not-an-email');
      expect(bad.statusCode).toBe(400);
      expect(bad.json().field).toBe('email');
    });
  });
});
