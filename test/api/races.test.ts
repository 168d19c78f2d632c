/**
 * Concurrent identical changes (issue 9, "Races"): every state transition fired 20 times at once
 * gives exactly one success, the rest 409 (404 for a removal that finds the object gone), and
 * exactly one journal record. Each test makes its own object, so none depends on another's data.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { InjectOptions } from 'fastify';
import { testDialects } from '../support/databases';
import { useTestApp } from '../support/test-app';
import { factories, type Cooperation } from '../support/factories';
import { makeCertificate } from '../../scripts/make-certificate';
import { licenseValidUntil } from '../../common/zones';
import type { AuditReason } from '../../server/db/audit';
import type { Role } from '../../common/enums';

const dialects = await testDialects();
const DAY = 86_400_000;
const TIMES = 20;

describe.each(dialects)('concurrent identical changes on %s', (dialect) => {
  const t = useTestApp(dialect, { demo: false });
  const make = factories(t);
  /** The supervisor and the customer's issuer, who race; the customer holds the objects they race on. */
  let w: Cooperation;
  let SUPERVISOR: string;
  beforeAll(async () => {
    w = await make.cooperation();
    SUPERVISOR = w.supervisor.email;
  });
  let serial = 0;
  /** A name no other test uses: the journal count below matches on it. */
  const unique = (label: string) => `race-${label}-${++serial}-${randomUUID().slice(0, 8)}`;

  /**
   * Fires the same call TIMES times at once and checks the answers: one 2xx, every other one
   * `loser` with a message saying why.
   */
  async function race(as: string, options: InjectOptions, loser: 409 | 404, why: RegExp) {
    const answers = await Promise.all(Array.from({ length: TIMES }, () => t.call(as, options)));
    const statuses = answers.map((a) => a.statusCode);
    const summary = `${options.method} ${options.url}: ${statuses.join(' ')}`;
    expect(statuses.filter((s) => s >= 200 && s < 300), summary).toHaveLength(1);
    expect(statuses.filter((s) => s < 200 || s >= 300), summary).toEqual(Array(TIMES - 1).fill(loser));
    for (const answer of answers.filter((a) => a.statusCode === loser)) expect(answer.json().message, summary).toMatch(why);
    return answers.find((a) => a.statusCode < 300)!;
  }

  /** Journal records of this reason that name the object. */
  async function records(reason: AuditReason, names: string) {
    const rows = await t.db.selectFrom('audit_records').select('message').where('reason', '=', reason).execute();
    return rows.filter((r) => r.message.includes(names)).length;
  }

  /** A customer of the operator with nobody in it. */
  async function organization(banned = false) {
    const organizationId = randomUUID();
    const name = unique('Customer');
    const now = t.clock.now().toISOString();
    await t.db.insertInto('organizations').values({
      organization_id: organizationId, organization_name: name, organization_role: 'CUSTOMER', parent_organization_id: w.operator.id,
      website: null, logo_url: null, address: null, ban_note: null, date_organization_banned: banned ? now : null, date_created: now,
    }).execute();
    return { organizationId, url: `/api/organizations/${organizationId}`, name };
  }

  describe('creations with a unique key', () => {
    it('uploads one certificate once: the same PEM 20 times at once is one 201, the rest 409', async () => {
      const now = t.clock.now().getTime();
      const subject = `O=Contoso, CN=${unique('twin')}.contoso.example`;
      const { pem } = await makeCertificate({ subject, notBefore: new Date(now - DAY), notAfter: new Date(now + 30 * DAY) });
      const created = await race(w.issuer.email, { method: 'POST', url: `/api/organizations/${w.customer.id}/certificates`, payload: { description: 'twin', certificate: pem } }, 409, /already/);
      expect(await records('CERTIFICATE_UPLOADED', created.json().distinguished_name)).toBe(1);
    });

    it('creates one organization of a name: 20 creations at once are one 201, the rest 409', async () => {
      const name = unique('Twin Org');
      await race(SUPERVISOR, { method: 'POST', url: '/api/organizations', payload: { organization_name: name } }, 409, /already exists/);
      expect(await records('ORGANIZATION_CREATED', name)).toBe(1);
    });
  });

  describe('certificates', () => {
    const at = (dn: string) => `/api/organizations/${w.customer.id}/certificates/${encodeURIComponent(dn)}`;

    /** A Not approved certificate of the customer, uploaded by its issuer; answers its DN. */
    async function uploaded(): Promise<string> {
      const now = t.clock.now().getTime();
      const { pem } = await makeCertificate({ subject: `O=Contoso, CN=${unique('gw')}.contoso.example`, notBefore: new Date(now - DAY), notAfter: new Date(now + 30 * DAY) });
      const res = await t.call(w.issuer.email, { method: 'POST', url: `/api/organizations/${w.customer.id}/certificates`, payload: { description: 'race', certificate: pem } });
      expect(res.statusCode).toBe(201);
      return res.json().distinguished_name;
    }
    async function approved() {
      const dn = await uploaded();
      expect((await t.call(SUPERVISOR, { method: 'POST', url: `/api/approve/${encodeURIComponent(dn)}` })).statusCode).toBe(204);
      return dn;
    }
    async function revoked() {
      const dn = await approved();
      expect((await t.call(SUPERVISOR, { method: 'POST', url: `${at(dn)}/revoke` })).statusCode).toBe(204);
      return dn;
    }

    it('approve: one approval, one CERTIFICATE_APPROVED', async () => {
      const dn = await uploaded();
      await race(SUPERVISOR, { method: 'POST', url: `/api/approve/${encodeURIComponent(dn)}` }, 409, /already approved/);
      expect(await records('CERTIFICATE_APPROVED', dn)).toBe(1);
    });

    it('revoke: one revocation, one CERTIFICATE_REVOKED', async () => {
      const dn = await approved();
      await race(SUPERVISOR, { method: 'POST', url: `${at(dn)}/revoke` }, 409, /already revoked/);
      expect(await records('CERTIFICATE_REVOKED', dn)).toBe(1);
    });

    it('remove: one removal, the others find it gone (404), one CERTIFICATE_REMOVED', async () => {
      const dn = await revoked();
      await race(SUPERVISOR, { method: 'DELETE', url: at(dn) }, 404, /not found/);
      expect(await records('CERTIFICATE_REMOVED', dn)).toBe(1);
      expect((await t.call(SUPERVISOR, { method: 'GET', url: at(dn) })).statusCode).toBe(404);
    });

    it('acknowledge expiry: one acknowledgement, one CERTIFICATE_EXPIRY_ACKNOWLEDGED', async () => {
      const dn = await approved();
      await race(SUPERVISOR, { method: 'POST', url: `${at(dn)}/acknowledge-expiry` }, 409, /already acknowledged/);
      expect(await records('CERTIFICATE_EXPIRY_ACKNOWLEDGED', dn)).toBe(1);
    });

    it('description: one change, the same text again is a 409, one CERTIFICATE_DESCRIPTION_CHANGED', async () => {
      const dn = await uploaded();
      const text = unique('description');
      const won = await race(
        SUPERVISOR,
        { method: 'PUT', url: `${at(dn)}/description`, payload: JSON.stringify(text), headers: { 'content-type': 'application/json' } },
        409,
        /already/,
      );
      expect(won.json().description).toBe(text);
      expect(await records('CERTIFICATE_DESCRIPTION_CHANGED', dn)).toBe(1);
    });
  });

  describe('licenses', () => {
    /** A license of the customer inserted as it would be after request (and approval), valid from `fromDays`. */
    async function license(options: { approved: boolean; fromDays?: number; days?: number }) {
      const name = unique('license');
      const from = new Date(t.clock.now().getTime() + (options.fromDays ?? 0) * DAY).toISOString();
      const days = options.days ?? 30;
      const licenseId = randomUUID();
      await t.db.insertInto('licenses').values({
        license_id: licenseId, license_name: name, name_search: name.toLowerCase(), license_scope: 'LAB', organization_id: w.customer.id,
        date_valid_from: from, days_valid: days, date_valid_until: licenseValidUntil(from, days), note: null,
        date_approved: options.approved ? from : null, date_rejected: null, date_expiry_acknowledged: null, approver_member_id: null,
        extended_by_license_id: null, version: 1, date_created: from,
      }).execute();
      return { licenseId, name };
    }
    const changedMeanwhile = /changed meanwhile/;

    it('approve: one approval, one LICENSE_APPROVED', async () => {
      const { licenseId, name } = await license({ approved: false });
      await race(SUPERVISOR, { method: 'POST', url: `/api/licenses/${licenseId}/approve`, payload: { version: 1 } }, 409, changedMeanwhile);
      expect(await records('LICENSE_APPROVED', name)).toBe(1);
    });

    it('reject: one rejection, one LICENSE_REJECTED', async () => {
      const { licenseId, name } = await license({ approved: false });
      await race(SUPERVISOR, { method: 'POST', url: `/api/licenses/${licenseId}/reject?version=1` }, 409, changedMeanwhile);
      expect(await records('LICENSE_REJECTED', name)).toBe(1);
    });

    it('renew: one successor, one LICENSE_RENEWED', async () => {
      const { licenseId, name } = await license({ approved: true, fromDays: -27, days: 30 });
      const won = await race(SUPERVISOR, { method: 'POST', url: `/api/licenses/${licenseId}/renew?version=1` }, 409, changedMeanwhile);
      expect(won.json().license_name).toBe(`${name} (renewal 1)`);
      const successors = await t.db.selectFrom('licenses').select('license_id').where('name_search', 'like', `${name.toLowerCase()} (renewal%`).execute();
      expect(successors.map((s) => s.license_id)).toEqual([won.json().license_id]);
      expect(await records('LICENSE_RENEWED', name)).toBe(1);
    });

    it("acknowledge expiry ('No renew'): one acknowledgement, one LICENSE_EXPIRY_ACKNOWLEDGED", async () => {
      const { licenseId, name } = await license({ approved: true, fromDays: -40, days: 30 });
      await race(SUPERVISOR, { method: 'POST', url: `/api/licenses/${licenseId}/acknowledge-expiry?version=1` }, 409, changedMeanwhile);
      expect(await records('LICENSE_EXPIRY_ACKNOWLEDGED', name)).toBe(1);
    });
  });

  describe('members and roles', () => {
    /** A member (of the customer unless told) holding MEMBER (or `role`) there, inserted as a sign-up would make them. */
    async function member(options: { banned?: boolean; role?: Role | null; organizationId?: string } = {}) {
      const memberId = randomUUID();
      const organizationId = options.organizationId ?? w.customer.id;
      const email = `${unique('member')}@contoso.example`;
      const now = t.clock.now().toISOString();
      await t.db.insertInto('members').values({
        member_id: memberId, organization_id: organizationId, member_email: email, name: email, given_name: null, family_name: null,
        job_role: null, mobile_phone: null, office_phone: null, address: null, ban_note: null,
        date_member_banned: options.banned ? now : null, date_created: now,
      }).execute();
      const role = options.role === undefined ? 'MEMBER' : options.role;
      if (role) await t.db.insertInto('role_assignments').values({ member_id: memberId, organization_id: organizationId, role, scope: 'ORGANIZATION' }).execute();
      return { url: `/api/organizations/${organizationId}/members/${memberId}`, email };
    }

    it('ban: one ban, one MEMBER_BANNED', async () => {
      const { url, email } = await member();
      await race(SUPERVISOR, { method: 'POST', url: `${url}/ban?note=race` }, 409, /already banned/);
      expect(await records('MEMBER_BANNED', email)).toBe(1);
    });

    it('unban: one unban, one MEMBER_UNBANNED', async () => {
      const { url, email } = await member({ banned: true });
      await race(SUPERVISOR, { method: 'POST', url: `${url}/unban` }, 409, /not banned/);
      expect(await records('MEMBER_UNBANNED', email)).toBe(1);
    });

    it('remove: one removal, the others find them gone (404), one MEMBER_REMOVED', async () => {
      const { url, email } = await member();
      await race(SUPERVISOR, { method: 'DELETE', url }, 404, /not found/);
      expect(await records('MEMBER_REMOVED', email)).toBe(1);
    });

    it('assign a role: one assignment, the others "already has the role", one ROLE_ASSIGNED', async () => {
      const { url, email } = await member({ role: null });
      const won = await race(SUPERVISOR, { method: 'POST', url: `${url}/roles/assign?role=MEMBER&scope=ORGANIZATION` }, 409, /already has the role MEMBER/);
      expect(won.json()).toEqual([{ organization_id: w.customer.id, organization_name: w.customer.name, role: 'MEMBER', scope: 'ORGANIZATION', until: null }]);
      expect(await records('ROLE_ASSIGNED', email)).toBe(1);
    });

    it('unassign a role: one unassignment, the others find no such role (404), one ROLE_UNASSIGNED', async () => {
      const { url, email } = await member();
      await race(SUPERVISOR, { method: 'POST', url: `${url}/roles/unassign?role=MEMBER` }, 404, /has no role MEMBER/);
      expect(await records('ROLE_UNASSIGNED', email)).toBe(1);
    });

    it('ban both administrators of an organization at once: one is banned, the other stays to manage it', async () => {
      const { organizationId } = await organization();
      const admins = [await member({ organizationId, role: 'ADMINISTRATOR' }), await member({ organizationId, role: 'ADMINISTRATOR' })];
      const answers = await Promise.all(admins.flatMap(({ url }) => Array.from({ length: TIMES / 2 }, () => t.call(SUPERVISOR, { method: 'POST', url: `${url}/ban` }))));
      const statuses = answers.map((a) => a.statusCode);
      expect(statuses.filter((s) => s === 200), statuses.join(' ')).toHaveLength(1);
      expect(statuses.filter((s) => s !== 200), statuses.join(' ')).toEqual(Array(TIMES - 1).fill(409));
      expect(answers.some((a) => /without an administrator/.test(a.json().message))).toBe(true);
      const active = await t.db.selectFrom('members').select('member_id').where('organization_id', '=', organizationId).where('date_member_banned', 'is', null).execute();
      expect(active).toHaveLength(1);
      expect((await records('MEMBER_BANNED', admins[0].email)) + (await records('MEMBER_BANNED', admins[1].email))).toBe(1);
    });
  });

  describe('organizations', () => {
    it('ban: one ban, one ORGANIZATION_BANNED', async () => {
      const { url, name } = await organization();
      await race(SUPERVISOR, { method: 'POST', url: `${url}/ban?note=race` }, 409, /already banned/);
      expect(await records('ORGANIZATION_BANNED', name)).toBe(1);
    });

    it('unban: one unban, one ORGANIZATION_UNBANNED', async () => {
      const { url, name } = await organization(true);
      await race(SUPERVISOR, { method: 'POST', url: `${url}/unban` }, 409, /not banned/);
      expect(await records('ORGANIZATION_UNBANNED', name)).toBe(1);
    });
  });

  describe('resources', () => {
    /** A RESTRICTED resource, granted to the customer or not. */
    async function resource(grantedToContoso: boolean) {
      const resourceId = randomUUID();
      const name = unique('resource');
      const { n } = await t.db.selectFrom('resources').select((eb) => eb.fn.max('ordinal').as('n')).executeTakeFirstOrThrow();
      await t.db.insertInto('resources').values({
        resource_id: resourceId, ordinal: Number(n ?? 0) + 1, resource_name: name, resource_type: 'STATIC_CONTENT', resource_access: 'RESTRICTED',
        path_pattern: `/${name}/*`, location: `/srv/${name}`, description: null,
      }).execute();
      if (grantedToContoso) await t.db.insertInto('resource_grants').values({ resource_id: resourceId, organization_id: w.customer.id }).execute();
      return { resourceId, url: (what: string) => `/api/resources/${resourceId}/${what}?organization=${w.customer.id}`, name };
    }

    it('grant: one grant, one RESOURCE_GRANTED', async () => {
      const { url, name } = await resource(false);
      const won = await race(SUPERVISOR, { method: 'POST', url: url('add') }, 409, /already granted/);
      expect(won.json().organizations).toEqual([{ organization_id: w.customer.id, organization_name: w.customer.name }]);
      expect(await records('RESOURCE_GRANTED', name)).toBe(1);
    });

    it('delete: one removal, the others find it gone (404), one RESOURCE_REMOVED', async () => {
      const { resourceId, name } = await resource(false);
      await race(SUPERVISOR, { method: 'DELETE', url: `/api/resources/${resourceId}` }, 404, /not found/);
      expect(await records('RESOURCE_REMOVED', name)).toBe(1);
    });

    it('take back a grant: one revocation, one RESOURCE_REVOKED', async () => {
      const { url, name } = await resource(true);
      const won = await race(SUPERVISOR, { method: 'POST', url: url('remove') }, 409, /not granted/);
      expect(won.json().organizations).toEqual([]);
      expect(await records('RESOURCE_REVOKED', name)).toBe(1);
    });
  });
});
