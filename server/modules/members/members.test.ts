import { beforeAll, describe, expect, it } from 'vitest';
import type { InjectOptions } from 'fastify';
import { testDialects } from '../../../test/support/databases';
import { useTestApp } from '../../../test/support/test-app';
import { factories, uniqueTag, type Cooperation, type Org } from '../../../test/support/factories';
import type { Scope } from '../../../common/enums';

const dialects = await testDialects();

describe.each(dialects)('members and roles API on %s', (dialect) => {
  const t = useTestApp(dialect, { demo: false });
  const make = factories(t);
  /** The operator's supervisor and approver, who act; each test makes the members it acts on. */
  let w: Cooperation;
  beforeAll(async () => {
    w = await make.cooperation();
  });
  const memberUrl = (organization: Org | string, memberId: string) => `/api/organizations/${typeof organization === 'string' ? organization : organization.id}/members/${memberId}`;
  /** The newest record of the reason in the organization's journal. */
  const lastRecord = (organizationId: string, reason: string) =>
    t.db.selectFrom('audit_records').selectAll().where('organization_id', '=', organizationId).where('reason', '=', reason).orderBy('record_id', 'desc').executeTakeFirstOrThrow();
  const idOf = async (email: string) =>
    (await t.db.selectFrom('members').select('member_id').where('member_email', '=', email).executeTakeFirstOrThrow()).member_id;

  /**
   * A partner below the operator with an administrator (`adminScope`, COOPERATION unless told) and
   * an issuer, and its customer (trusting its own domain) with an issuer and a member; the emails
   * read like the demo's: admin@ and issuer@ the partner's domain, issuer@ and member@ the customer's.
   */
  async function tenancy(options: { adminScope?: Scope } = {}) {
    const partner = await make.organization({ role: 'PARTNER', parent: w.operator, name: `Partner ${uniqueTag()}` });
    const customer = await make.organization({ parent: partner, trusted: true, name: `Customer ${uniqueTag()}` });
    return {
      partner, customer,
      admin: await make.member(partner, { role: 'ADMINISTRATOR', scope: options.adminScope ?? 'COOPERATION', email: `admin@${partner.domain}`, name: 'Nora Northwind' }),
      partnerIssuer: await make.member(partner, { role: 'ISSUER', email: `issuer@${partner.domain}`, name: 'Ivan Issuer' }),
      issuer: await make.member(customer, { role: 'ISSUER', email: `issuer@${customer.domain}`, name: 'Isla Contoso' }),
      member: await make.member(customer, { role: 'MEMBER', email: `member@${customer.domain}`, name: 'Max Member' }),
    };
  }
  /** An operator of its own with its staff, for the tests that change operator roles. */
  async function staff() {
    const operator = await make.organization({ role: 'OPERATOR', name: `Operator ${uniqueTag()}` });
    const person = (role: 'SUPERVISOR' | 'ADMINISTRATOR' | 'APPROVER' | 'DEVOPS', name: string) =>
      make.member(operator, { role, scope: 'COOPERATION', email: `${role === 'ADMINISTRATOR' ? 'admin' : role.toLowerCase()}@${operator.domain}`, name });
    return {
      operator,
      supervisor: await person('SUPERVISOR', 'Sofia Supervisor'),
      admin: await person('ADMINISTRATOR', 'Adam Admin'),
      approver: await person('APPROVER', 'April Approver'),
      devops: await person('DEVOPS', 'Devon Devops'),
    };
  }
  /** A person admitted through the customer's trusted domain, as a throw-away member. */
  const newcomer = async (customer: Org, name = 'newcomer') => {
    const email = `${name}-${uniqueTag()}@${customer.domain}`;
    expect((await t.call(email, { method: 'GET', url: '/api/auth/callback' })).statusCode).toBe(200);
    return { email, id: await idOf(email), url: memberUrl(customer, await idOf(email)) };
  };

  describe('who may act where', () => {
    interface Case { name: string; method: InjectOptions['method']; suffix: string; payload?: object; write: boolean; ok: number; target?: 'banned' | 'issuer' }
    const cases: Case[] = [
      { name: 'list members', method: 'GET', suffix: '', write: false, ok: 200 },
      { name: 'read a member', method: 'GET', suffix: '/{m}', write: false, ok: 200 },
      { name: 'read roles', method: 'GET', suffix: '/{m}/roles', write: false, ok: 200 },
      { name: 'test sign-in status', method: 'GET', suffix: '/{m}/status?email=someone@contoso.example', write: false, ok: 200 },
      { name: 'save a member', method: 'PUT', suffix: '/{m}', payload: { job_role: 'Network engineer' }, write: true, ok: 200 },
      { name: 'ban a member', method: 'POST', suffix: '/{m}/ban?note=Left', write: true, ok: 200 },
      { name: 'unban a member', method: 'POST', suffix: '/{m}/unban', write: true, ok: 200, target: 'banned' },
      { name: 'assign a role', method: 'POST', suffix: '/{m}/roles/assign?role=ISSUER&scope=ORGANIZATION', write: true, ok: 200 },
      { name: 'unassign a role', method: 'POST', suffix: '/{m}/roles/unassign?role=ISSUER', write: true, ok: 200, target: 'issuer' },
      { name: 'remove a member', method: 'DELETE', suffix: '/{m}', write: true, ok: 204 },
    ];
    for (const c of cases) {
      it(`${c.name}: 401, 404 across tenants, ${c.write ? '403 without the role, ' : ''}${c.ok} when allowed`, async () => {
        const x = await tenancy();
        // A member in the state the call needs: banned to unban, holding ISSUER to unassign it.
        const target = await make.member(x.customer, {
          banned: c.target === 'banned',
          more: c.target === 'issuer' ? [{ organization: x.customer, role: 'ISSUER', scope: 'ORGANIZATION' }] : [],
        });
        const url = (organization: Org, memberId: string) => `/api/organizations/${organization.id}/members${c.suffix.replace('{m}', memberId)}`;
        const customer = url(x.customer, target.id);
        const call = (as: string | null, where: string) => t.call(as, { method: c.method, url: where, payload: c.payload });
        expect((await call(null, customer)).statusCode).toBe(401);
        expect((await call(x.partnerIssuer.email, customer)).statusCode).toBe(404);
        expect((await call(x.issuer.email, url(x.partner, x.partnerIssuer.id))).statusCode).toBe(404);
        if (c.write) {
          expect((await call(x.issuer.email, customer)).statusCode).toBe(403);
          expect((await call(w.approver.email, customer)).statusCode).toBe(403);
        } else {
          expect((await call(x.issuer.email, customer)).statusCode).toBe(200);
        }
        expect((await call(x.admin.email, customer)).statusCode).toBe(c.ok);
      });
    }

    it('hides a member behind the wrong organization in the path', async () => {
      const x = await tenancy();
      const wrong = memberUrl(x.partner, x.member.id);
      expect((await t.call(w.supervisor.email, { method: 'GET', url: wrong })).statusCode).toBe(404);
      expect((await t.call(w.supervisor.email, { method: 'POST', url: `${wrong}/ban` })).statusCode).toBe(404);
      expect((await t.call(w.supervisor.email, { method: 'GET', url: memberUrl(x.customer, 'nobody') })).statusCode).toBe(404);
      // Behind the right one, the member is there and was not banned.
      expect((await t.call(w.supervisor.email, { method: 'GET', url: memberUrl(x.customer, x.member.id) })).json()).toMatchObject({ date_member_banned: null });
    });

    it('GET /api/members: 401 without a token, and only rows of readable organizations', async () => {
      const x = await tenancy();
      expect((await t.call(null, { method: 'GET', url: '/api/members' })).statusCode).toBe(401);
      const organizations = async (as: string) =>
        [...new Set(((await t.call(as, { method: 'GET', url: '/api/members?limit=1000' })).json() as Array<{ organization_name: string }>).map((m) => m.organization_name))].sort();
      expect(await organizations(x.issuer.email)).toEqual([x.customer.name]);
      expect(await organizations(x.admin.email)).toEqual([x.customer.name, x.partner.name].sort());
      // The operator's supervisor reads every organization that has members.
      const withMembers = await t.db.selectFrom('members as m').innerJoin('organizations as o', 'o.organization_id', 'm.organization_id').select('o.organization_name').distinct().execute();
      expect(withMembers.length).toBeGreaterThan(4);
      expect(await organizations(w.supervisor.email)).toEqual(withMembers.map((o) => o.organization_name).sort());
    });
  });

  describe('bans and removal', () => {
    it('shuts a banned member out at their very next call; unban restores; both journaled', async () => {
      const x = await tenancy();
      const url = memberUrl(x.customer, x.member.id);
      expect((await t.call(x.member.email, { method: 'GET', url })).statusCode).toBe(200);
      const ban = await t.call(w.supervisor.email, { method: 'POST', url: `${url}/ban?note=${encodeURIComponent('Laptop stolen')}` });
      expect(ban.statusCode).toBe(200);
      expect(ban.json()).toMatchObject({ ban_note: 'Laptop stolen', date_member_banned: t.clock.now().toISOString() });
      const refused = await t.call(x.member.email, { method: 'GET', url });
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toMatchObject({ message: 'Your membership is banned.', redirect: 'AccessError' });
      expect(await lastRecord(x.customer.id, 'MEMBER_BANNED')).toMatchObject({ organization_id: x.customer.id, message: `Banned member ${x.member.email}: Laptop stolen` });
      expect((await t.call(w.supervisor.email, { method: 'POST', url: `${url}/ban` })).statusCode).toBe(409);
      const listed = await t.call(w.supervisor.email, { method: 'GET', url: `/api/members?filter=${encodeURIComponent(x.member.email)}` });
      expect(listed.json()).toEqual([expect.objectContaining({ member_email: x.member.email, date_member_banned: expect.any(String) })]);

      expect((await t.call(w.supervisor.email, { method: 'POST', url: `${url}/unban` })).json()).toMatchObject({ date_member_banned: null, ban_note: null });
      expect((await t.call(x.member.email, { method: 'GET', url })).statusCode).toBe(200);
      expect(await lastRecord(x.customer.id, 'MEMBER_UNBANNED')).toMatchObject({ organization_id: x.customer.id, member_email: w.supervisor.email });
      expect((await t.call(w.supervisor.email, { method: 'POST', url: `${url}/unban` })).statusCode).toBe(409);
      const long = await t.call(w.supervisor.email, { method: 'POST', url: `${url}/ban?note=${'x'.repeat(1001)}` });
      expect(long.statusCode).toBe(400);
      expect(long.json().field).toBe('note');
    });

    it('refuses to ban or remove oneself', async () => {
      const x = await tenancy();
      const url = memberUrl(x.partner, x.admin.id);
      const ban = await t.call(x.admin.email, { method: 'POST', url: `${url}/ban` });
      expect(ban.statusCode).toBe(409);
      expect(ban.json().message).toBe('You cannot ban yourself.');
      expect((await t.call(x.admin.email, { method: 'DELETE', url })).json().message).toBe('You cannot remove yourself.');
      expect((await t.call(x.admin.email, { method: 'GET', url })).json()).toMatchObject({ date_member_banned: null });
    });

    it('removes a member with their roles, journals it, and lets the trusted domain admit them again', async () => {
      const x = await tenancy();
      const gone = await newcomer(x.customer, 'gone');
      const owned = await make.certificate(x.customer, 'approved', { owner: gone.id });
      expect((await t.call(w.supervisor.email, { method: 'DELETE', url: gone.url })).statusCode).toBe(204);
      expect((await t.call(w.supervisor.email, { method: 'GET', url: gone.url })).statusCode).toBe(404);
      expect(await t.db.selectFrom('role_assignments').select('role').where('member_id', '=', gone.id).execute()).toEqual([]);
      // Their certificates stay with the organization, without an owner.
      const certificate = await t.db.selectFrom('certificates').select(['owner_member_id', 'organization_id']).where('distinguished_name', '=', owned.dn).executeTakeFirstOrThrow();
      expect(certificate).toEqual({ owner_member_id: null, organization_id: x.customer.id });
      expect(await lastRecord(x.customer.id, 'MEMBER_REMOVED')).toMatchObject({ organization_id: x.customer.id, message: `Removed member ${gone.email}.` });
      expect((await t.call(gone.email, { method: 'GET', url: '/api/auth/callback' })).statusCode).toBe(200);
    });
  });

  describe('the last administrator', () => {
    it('keeps an organization with at least one active ADMINISTRATOR or SUPERVISOR', async () => {
      const x = await tenancy();
      const admin = memberUrl(x.partner, x.admin.id);
      const issuer = memberUrl(x.partner, x.partnerIssuer.id);
      const as = w.supervisor.email;
      for (const [method, url] of [['POST', `${admin}/ban`], ['DELETE', admin], ['POST', `${admin}/roles/unassign?role=ADMINISTRATOR`]] as const) {
        const res = await t.call(as, { method, url });
        expect(res.statusCode, `${method} ${url}`).toBe(409);
        expect(res.json().message).toBe(`${x.partner.name} would be left without an administrator or supervisor; give another member that role first.`);
      }
      // A second administrator makes it possible, unless that one is banned.
      expect((await t.call(as, { method: 'POST', url: `${issuer}/roles/assign?role=ADMINISTRATOR&scope=ORGANIZATION` })).statusCode).toBe(200);
      expect((await t.call(as, { method: 'POST', url: `${issuer}/ban` })).statusCode).toBe(200);
      expect((await t.call(as, { method: 'POST', url: `${admin}/roles/unassign?role=ADMINISTRATOR` })).statusCode).toBe(409);
      expect((await t.call(as, { method: 'POST', url: `${issuer}/unban` })).statusCode).toBe(200);
      expect((await t.call(as, { method: 'POST', url: `${admin}/roles/unassign?role=ADMINISTRATOR` })).statusCode).toBe(200);
      // The customer has no administrator of its own (the partner runs it): removing members there is not held up.
      const temp = await newcomer(x.customer, 'temp');
      expect((await t.call(as, { method: 'DELETE', url: temp.url })).statusCode).toBe(204);
    });
  });

  describe('roles', () => {
    it('assigns only roles the member\'s organization allows, with both role and scope', async () => {
      const x = await tenancy();
      const s = await staff();
      const url = memberUrl(x.customer, x.member.id);
      for (const role of ['APPROVER', 'SUPERVISOR', 'DEVOPS']) {
        const res = await t.call(s.supervisor.email, { method: 'POST', url: `${url}/roles/assign?role=${role}&scope=ORGANIZATION` });
        expect(res.statusCode, role).toBe(400);
        expect(res.json()).toMatchObject({ field: 'role', message: `${role} can be assigned only to members of the operator organization.` });
      }
      const noScope = await t.call(s.supervisor.email, { method: 'POST', url: `${url}/roles/assign?role=ISSUER` });
      expect(noScope.json()).toMatchObject({ field: 'scope' });
      expect((await t.call(s.supervisor.email, { method: 'POST', url: `${url}/roles/assign?role=OWNER&scope=ORGANIZATION` })).json().field).toBe('role');
      const devops = memberUrl(s.operator, s.devops.id);
      const res = await t.call(s.supervisor.email, { method: 'POST', url: `${devops}/roles/assign?role=APPROVER&scope=COOPERATION` });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual(expect.arrayContaining([{ organization_id: s.operator.id, organization_name: s.operator.name, role: 'APPROVER', scope: 'COOPERATION', until: null }]));
    });

    it('changes the scope of a role held, refuses the same assignment twice, and journals each', async () => {
      const x = await tenancy();
      const url = memberUrl(x.customer, x.member.id);
      const as = x.admin.email;
      const first = await t.call(as, { method: 'POST', url: `${url}/roles/assign?role=ISSUER&scope=ORGANIZATION` });
      expect(first.json()).toEqual(expect.arrayContaining([expect.objectContaining({ role: 'ISSUER', scope: 'ORGANIZATION', organization_name: x.customer.name })]));
      expect(await lastRecord(x.customer.id, 'ROLE_ASSIGNED')).toMatchObject({ organization_id: x.customer.id, member_email: as, message: `Assigned ISSUER (ORGANIZATION) to ${x.member.email}.` });
      const twice = await t.call(as, { method: 'POST', url: `${url}/roles/assign?role=ISSUER&scope=ORGANIZATION` });
      expect(twice.statusCode).toBe(409);
      const scope = await t.call(as, { method: 'POST', url: `${url}/roles/assign?role=ISSUER&scope=COOPERATION` });
      expect(scope.json()).toEqual(expect.arrayContaining([expect.objectContaining({ role: 'ISSUER', scope: 'COOPERATION' })]));
      expect((await lastRecord(x.customer.id, 'ROLE_ASSIGNED')).message).toBe(`Changed the scope of ISSUER of ${x.member.email} from ORGANIZATION to COOPERATION.`);
      const removed = await t.call(as, { method: 'POST', url: `${url}/roles/unassign?role=ISSUER` });
      expect(removed.json()).toEqual([expect.objectContaining({ role: 'MEMBER' })]);
      expect(await lastRecord(x.customer.id, 'ROLE_UNASSIGNED')).toMatchObject({ organization_id: x.customer.id, message: `Unassigned ISSUER from ${x.member.email}.` });
      const none = await t.call(as, { method: 'POST', url: `${url}/roles/unassign?role=ISSUER` });
      expect(none.statusCode).toBe(404);
      expect(none.json().message).toBe(`${x.member.email} has no role ISSUER in ${x.customer.name}.`);
    });

    it('lists assignments of other organizations but unassigns only those of the path organization', async () => {
      const x = await tenancy();
      const member = await make.member(x.customer, { more: [{ organization: x.partner, role: 'ISSUER', scope: 'ORGANIZATION' }] });
      const url = memberUrl(x.customer, member.id);
      const roles = await t.call(w.supervisor.email, { method: 'GET', url: `${url}/roles` });
      // By organization name: "Customer …" before "Partner …".
      expect(roles.json()).toEqual([
        { organization_id: x.customer.id, organization_name: x.customer.name, role: 'MEMBER', scope: 'ORGANIZATION', until: null },
        { organization_id: x.partner.id, organization_name: x.partner.name, role: 'ISSUER', scope: 'ORGANIZATION', until: null },
      ]);
      // Someone who cannot read the partner does not learn of the assignment there.
      const seen = await t.call(x.issuer.email, { method: 'GET', url: `${url}/roles` });
      expect(seen.json()).toEqual([expect.objectContaining({ organization_name: x.customer.name, role: 'MEMBER' })]);
      const res = await t.call(w.supervisor.email, { method: 'POST', url: `${url}/roles/unassign?role=ISSUER` });
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toBe(`The role ISSUER of ${member.email} belongs to another organization and cannot be unassigned here.`);
    });

    it('hands out no scope beyond the assigner\'s own reach', async () => {
      const x = await tenancy({ adminScope: 'ORGANIZATION' });
      const url = memberUrl(x.partner, x.partnerIssuer.id);
      const wide = await t.call(x.admin.email, { method: 'POST', url: `${url}/roles/assign?role=ADMINISTRATOR&scope=COOPERATION` });
      expect(wide.statusCode).toBe(403);
      expect(wide.json().message).toContain(`with a scope reaching the organizations below ${x.partner.name}`);
      expect((await t.call(x.admin.email, { method: 'POST', url: `${url}/roles/assign?role=MEMBER&scope=ORGANIZATION` })).statusCode).toBe(200);
      expect((await t.call(x.admin.email, { method: 'POST', url: `${url}/roles/unassign?role=MEMBER` })).statusCode).toBe(200);
    });
  });

  describe('who may grant which role (no self-escalation)', () => {
    const roleNames = async (email: string) =>
      (await t.db.selectFrom('role_assignments as r').innerJoin('members as m', 'm.member_id', 'r.member_id').select('r.role').where('m.member_email', '=', email).execute()).map((r) => r.role).sort();

    it('refuses anyone giving themselves a role, whatever they hold, and changes nothing', async () => {
      const s = await staff();
      const x = await tenancy();
      for (const [person, organization] of [[s.admin, s.operator], [s.supervisor, s.operator], [x.admin, x.partner]] as const) {
        const before = await roleNames(person.email);
        const self = memberUrl(organization, person.id);
        for (const role of ['SUPERVISOR', 'DEVOPS', 'APPROVER', 'ISSUER']) {
          const res = await t.call(person.email, { method: 'POST', url: `${self}/roles/assign?role=${role}&scope=COOPERATION` });
          expect([400, 403], `${person.email} gives itself ${role}`).toContain(res.statusCode);
        }
        expect(await roleNames(person.email)).toEqual(before);
      }
      // The operator administrator of the issue cannot then reach the gateway's archive.
      expect((await t.call(s.admin.email, { method: 'GET', url: '/api/piston/certs' })).statusCode).toBe(403);
    });

    it('lets an ADMINISTRATOR grant only ADMINISTRATOR, ISSUER and MEMBER; a SUPERVISOR any role', async () => {
      const s = await staff();
      const approver = memberUrl(s.operator, s.approver.id);
      for (const role of ['SUPERVISOR', 'DEVOPS', 'APPROVER']) {
        const res = await t.call(s.admin.email, { method: 'POST', url: `${approver}/roles/assign?role=${role}&scope=ORGANIZATION` });
        expect(res.statusCode, `ADMINISTRATOR grants ${role}`).toBe(403);
        expect(res.json().message).toContain(`grant or take away ${role}`);
      }
      expect((await t.call(s.admin.email, { method: 'POST', url: `${approver}/roles/assign?role=ISSUER&scope=ORGANIZATION` })).statusCode).toBe(200);
      expect((await t.call(s.admin.email, { method: 'POST', url: `${approver}/roles/unassign?role=ISSUER` })).statusCode).toBe(200);
      // Nor may it take away what it could not give: the supervisor keeps SUPERVISOR.
      const supervisor = memberUrl(s.operator, s.supervisor.id);
      expect((await t.call(s.admin.email, { method: 'POST', url: `${supervisor}/roles/unassign?role=SUPERVISOR` })).statusCode).toBe(403);
      expect(await roleNames(s.supervisor.email)).toContain('SUPERVISOR');
      // A SUPERVISOR grants DEVOPS, and takes it away again.
      expect((await t.call(s.supervisor.email, { method: 'POST', url: `${approver}/roles/assign?role=DEVOPS&scope=ORGANIZATION` })).statusCode).toBe(200);
      expect(await roleNames(s.approver.email)).toEqual(['APPROVER', 'DEVOPS']);
      expect((await t.call(s.supervisor.email, { method: 'POST', url: `${approver}/roles/unassign?role=DEVOPS` })).statusCode).toBe(200);
      expect(await roleNames(s.approver.email)).toEqual(['APPROVER']);
    });
  });

  describe('role scopes of a partner ADMINISTRATOR', () => {
    it('MANAGED: acts on members of its customers, not on its own', async () => {
      const x = await tenancy({ adminScope: 'MANAGED' });
      const customer = memberUrl(x.customer, x.issuer.id);
      const own = memberUrl(x.partner, x.partnerIssuer.id);
      expect((await t.call(x.admin.email, { method: 'PUT', url: customer, payload: { job_role: 'Managed' } })).statusCode).toBe(200);
      expect((await t.call(x.admin.email, { method: 'PUT', url: own, payload: { job_role: 'Own' } })).statusCode).toBe(404);
      expect((await t.call(x.admin.email, { method: 'POST', url: `${own}/ban` })).statusCode).toBe(404);
    });

    it('ORGANIZATION: acts on its own members, not on its customers\'', async () => {
      const x = await tenancy({ adminScope: 'ORGANIZATION' });
      const customer = memberUrl(x.customer, x.issuer.id);
      const own = memberUrl(x.partner, x.partnerIssuer.id);
      expect((await t.call(x.admin.email, { method: 'PUT', url: own, payload: { job_role: 'Own' } })).statusCode).toBe(200);
      expect((await t.call(x.admin.email, { method: 'POST', url: `${own}/ban` })).statusCode).toBe(200);
      expect((await t.call(x.partnerIssuer.email, { method: 'GET', url: own })).statusCode).toBe(403);
      expect((await t.call(x.admin.email, { method: 'POST', url: `${own}/unban` })).statusCode).toBe(200);
      expect((await t.call(x.partnerIssuer.email, { method: 'GET', url: own })).statusCode).toBe(200);
      expect((await t.call(x.admin.email, { method: 'PUT', url: customer, payload: { job_role: 'Managed' } })).statusCode).toBe(404);
    });
  });

  describe('save', () => {
    it('saves contact data, journals the changed fields, and keeps the email read-only', async () => {
      const x = await tenancy();
      const url = memberUrl(x.customer, x.issuer.id);
      const current = (await t.call(w.supervisor.email, { method: 'GET', url })).json();
      const res = await t.call(w.supervisor.email, {
        method: 'PUT',
        url,
        payload: { ...current, member_email: x.issuer.email.toUpperCase(), name: ' Isla Contoso-Berg ', mobile_phone: '+49 (40) 123-456 ext. 7', office_phone: '', address: 'Pier 7' },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ name: 'Isla Contoso-Berg', mobile_phone: '+49 (40) 123-456 ext. 7', office_phone: null, address: 'Pier 7', member_email: x.issuer.email, organization_name: x.customer.name });
      expect((await lastRecord(x.customer.id, 'MEMBER_SAVED')).message).toBe(`Saved member ${x.issuer.email} (name, mobile_phone, address).`);
      const cases: Array<[object, string]> = [
        [{ member_email: `other@${x.customer.domain}` }, 'member_email'],
        [{ name: '  ' }, 'name'],
        [{ mobile_phone: 'call me maybe' }, 'mobile_phone'],
        [{ job_role: 'x'.repeat(201) }, 'job_role'],
      ];
      for (const [payload, field] of cases) {
        const bad = await t.call(w.supervisor.email, { method: 'PUT', url, payload });
        expect(bad.statusCode, field).toBe(400);
        expect(bad.json().field).toBe(field);
      }
      expect((await t.call(w.supervisor.email, { method: 'GET', url })).json().member_email).toBe(x.issuer.email);
    });
  });

  describe('lists', () => {
    it('filters by name or email, case-insensitively, pages and tells the total', async () => {
      const x = await tenancy();
      const newer = await newcomer(x.customer);
      const base = `/api/organizations/${x.customer.id}/members`;
      const emails = async (query: string, url = base) =>
        ((await t.call(x.member.email, { method: 'GET', url: `${url}${query}` })).json() as Array<{ member_email: string }>).map((m) => m.member_email);
      expect(await emails('?filter=MAX')).toEqual([x.member.email]);
      expect(await emails('?filter=ISSUER@')).toEqual([x.issuer.email]);
      expect(await emails('?filter=%25')).toEqual([]);
      const page = await t.call(x.member.email, { method: 'GET', url: `${base}?limit=1&offset=1` });
      expect(page.json()).toHaveLength(1);
      const total = Number(page.headers['x-total-count']);
      expect(total).toBe((await emails('')).length);
      expect((await emails('')).sort()).toEqual([x.issuer.email, x.member.email, newer.email].sort());
      expect(total).toBe(3);
      expect((await t.call(x.member.email, { method: 'GET', url: `${base}?limit=0` })).json().field).toBe('limit');
      const all = await t.call(w.supervisor.email, { method: 'GET', url: `/api/members?filter=${x.partner.domain}` });
      // By name, then email: Ivan Issuer before Nora Northwind.
      expect(all.json().map((m: { member_email: string; organization_name: string }) => [m.member_email, m.organization_name])).toEqual([
        [x.partnerIssuer.email, x.partner.name],
        [x.admin.email, x.partner.name],
      ]);
      expect(all.headers['x-total-count']).toBe('2');
    });
  });

  describe('sign-in status', () => {
    const status = async (as: string, member: { organization: string; id: string }, email?: string) => {
      const url = `${memberUrl(member.organization, member.id)}/status${email ? `?email=${encodeURIComponent(email)}` : ''}`;
      return t.call(as, { method: 'GET', url });
    };

    it('says whether and how a person can sign in', async () => {
      const x = await tenancy();
      const banned = await make.organization({ parent: w.operator, banned: true });
      const ofBanned = await make.member(banned);
      const unknown = `unknown-${uniqueTag()}.example`;
      const expectations: Array<[string | undefined, string, boolean, string | null, string]> = [
        [undefined, 'MEMBER', true, x.customer.name, `${x.member.email} signs in as a member of ${x.customer.name}`],
        [`Someone.New@${x.customer.domain}`, 'TRUSTED_DOMAIN', true, x.customer.name, `join ${x.customer.name} as MEMBER through the trusted domain ${x.customer.domain}`],
        [ofBanned.email, 'BANNED_ORGANIZATION', false, banned.name, `${banned.name}, which is banned`],
        [`stranger@${unknown}`, 'UNKNOWN', false, null, `no organization trusts ${unknown}`],
      ];
      for (const [email, code, canSignIn, organization, message] of expectations) {
        const res = await status(w.supervisor.email, x.member, email);
        expect(res.statusCode, email).toBe(200);
        expect(res.json()).toMatchObject({ status: code, can_sign_in: canSignIn, organization_name: organization, severity: canSignIn ? 'INFO' : 'WARNING' });
        expect(res.json().message).toContain(message);
      }
      expect((await status(w.supervisor.email, x.member, `someone.new@${x.customer.domain}`)).json().email).toBe(`someone.new@${x.customer.domain}`);
    });

    it('tells of banned members and of domains trusted twice', async () => {
      const x = await tenancy();
      const shared = `shared-${uniqueTag()}.example`;
      await make.organization({ parent: w.operator, domains: [shared] });
      await make.organization({ parent: w.operator, domains: [shared] });
      const issuer = await make.member(x.customer, { role: 'ISSUER', banned: true });
      expect((await status(w.supervisor.email, x.member, issuer.email)).json()).toMatchObject({ status: 'BANNED_MEMBER', can_sign_in: false });
      expect((await status(w.supervisor.email, x.member, `a@${shared}`)).json()).toMatchObject({ status: 'AMBIGUOUS_DOMAIN', can_sign_in: false });
    });

    it('names only organizations the caller can read, and wants an email address', async () => {
      const x = await tenancy();
      const res = await status(x.member.email, x.member, w.operatorAdmin.email);
      expect(res.json()).toMatchObject({ status: 'UNKNOWN', can_sign_in: false, organization_name: null, message: `${w.operatorAdmin.email} does not sign in to any organization you can see.` });
      // Nor does it tell that someone is a banned member of another tenant (issue 9, defect 7).
      const outsider = await make.member(x.partner, { role: 'ISSUER', banned: true });
      const banned = (await status(x.member.email, x.member, outsider.email)).json();
      expect(banned).toMatchObject({ status: 'UNKNOWN', organization_name: null });
      expect(banned.message).not.toMatch(/banned/);
      expect(banned.message).not.toContain(x.partner.name);
      expect((await status(w.supervisor.email, x.member, outsider.email)).json()).toMatchObject({ status: 'BANNED_MEMBER', organization_name: x.partner.name });
      // One answer for "somewhere you cannot see" and "nowhere" (issue 30, defect 4): a member of another
      // tenant, a domain another tenant trusts and a domain nobody trusts read the same.
      const elsewhere = await make.organization({ parent: w.operator, trusted: true });
      const answers = await Promise.all([w.operatorAdmin.email, `someone@${elsewhere.domain}`, `nobody@unknown-${uniqueTag()}.example`].map(async (email) => {
        const { email: asked, message, ...rest } = (await status(x.member.email, x.member, email)).json();
        expect(asked).toBe(email);
        return { ...rest, message: message.replace(email, '<email>') };
      }));
      expect(answers[0]).toMatchObject({ status: 'UNKNOWN', organization_name: null, message: '<email> does not sign in to any organization you can see.' });
      expect(answers[1]).toEqual(answers[0]);
      expect(answers[2]).toEqual(answers[0]);
      const bad = await status(x.member.email, x.member, 'not-an-email');
      expect(bad.statusCode).toBe(400);
      expect(bad.json().field).toBe('email');
    });
  });
});
