/**
 * Every certificate, license, member and organization the API returns carries its `abilities`:
 * what this caller may do to it, decided by common/policy.ts on the server. The screens show or
 * hide controls from them, so they must agree with what the server then allows, for lists (kept
 * per data epoch, shared only by callers with the same assignments) and details alike.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '../support/databases';
import { useTestApp } from '../support/test-app';
import { factories, type Cooperation } from '../support/factories';

const dialects = await testDialects();

describe.each(dialects)('abilities on %s', (dialect) => {
  const t = useTestApp(dialect, { demo: false });
  const make = factories(t);
  /** The people, and the organizations they read; the certificates and licenses are each test's own. */
  let w: Cooperation;
  let SUPERVISOR: string;
  let ADMIN: string;
  beforeAll(async () => {
    w = await make.cooperation();
    [SUPERVISOR, ADMIN] = [w.supervisor.email, w.partnerAdmin.email];
  });
  /** A customer of the partner with its own issuer, member and one approved certificate. */
  async function customer() {
    const org = await make.organization({ parent: w.partner });
    const [issuer, member] = [await make.member(org, { role: 'ISSUER' }), await make.member(org, { role: 'MEMBER' })];
    await make.certificate(org, 'approved');
    return { org, ISSUER: issuer.email, MEMBER: member.email };
  }
  const get = async <T>(as: string, url: string): Promise<T> => {
    const res = await t.call(as, { method: 'GET', url });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  type WithAbilities = { abilities: string[] };

  it('gives each caller on the same certificate list the abilities of their own roles', async () => {
    const { org, ISSUER, MEMBER } = await customer();
    const url = `/api/organizations/${org.id}/certificates`;
    const [supervisor, issuer, member] = await Promise.all([SUPERVISOR, ISSUER, MEMBER].map((as) => get<WithAbilities[]>(as, url)));
    expect(supervisor[0].abilities.sort()).toEqual(
      ['certificate.acknowledgeExpiry', 'certificate.approve', 'certificate.editDescription', 'certificate.remove', 'certificate.revoke'],
    );
    expect(issuer[0].abilities).toEqual(['certificate.acknowledgeExpiry']);
    expect(member[0].abilities).toEqual([]);
    // Asked again (the kept pages): still each caller's own.
    expect((await get<WithAbilities[]>(MEMBER, url))[0].abilities).toEqual([]);
    expect((await get<WithAbilities[]>(ISSUER, url))[0].abilities).toEqual(['certificate.acknowledgeExpiry']);
  });

  it('agrees with what the server then allows: an ability offered is not refused for the roles, one withheld is', async () => {
    const { org, ISSUER } = await customer();
    const [certificate] = await get<Array<WithAbilities & { distinguished_name: string }>>(ISSUER, `/api/organizations/${org.id}/certificates`);
    expect(certificate.abilities).not.toContain('certificate.editDescription');
    const dn = encodeURIComponent(certificate.distinguished_name);
    const edit = await t.call(ISSUER, {
      method: 'PUT', url: `/api/organizations/${org.id}/certificates/${dn}/description`,
      headers: { 'content-type': 'application/json' }, payload: JSON.stringify('x'),
    });
    expect(edit.statusCode).toBe(403);
    const detail = await get<WithAbilities>(SUPERVISOR, `/api/organizations/${org.id}/certificates/${dn}`);
    expect(detail.abilities).toContain('certificate.editDescription');
    const edited = await t.call(SUPERVISOR, {
      method: 'PUT', url: `/api/organizations/${org.id}/certificates/${dn}/description`,
      headers: { 'content-type': 'application/json' }, payload: JSON.stringify('Edited because the ability said so'),
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json().abilities).toEqual(detail.abilities);
  });

  it('leaves ban, remove and giving a role out of one\'s own member record, not out of others\'', async () => {
    const members = await get<Array<WithAbilities & { member_email: string }>>(ADMIN, `/api/organizations/${w.partner.id}/members`);
    const own = members.find((m) => m.member_email === ADMIN)!;
    const other = members.find((m) => m.member_email !== ADMIN)!;
    expect(other.abilities).toEqual(expect.arrayContaining(['member.save', 'member.ban', 'member.remove', 'role.assign']));
    expect(own.abilities).toContain('member.save');
    expect(own.abilities).not.toContain('member.ban');
    expect(own.abilities).not.toContain('member.remove');
    expect(own.abilities).not.toContain('role.assign');
  });

  it('never offers banning the operator, nor one\'s own organization', async () => {
    const organizations = await get<Array<WithAbilities & { organization_role: string; organization_id: string }>>(SUPERVISOR, '/api/organizations?limit=1000');
    const operator = organizations.find((o) => o.organization_id === w.operator.id)!;
    expect(operator.organization_role).toBe('OPERATOR');
    expect(operator.abilities).toContain('organization.save');
    expect(operator.abilities).not.toContain('organization.ban');
    expect(organizations.find((o) => o.organization_id === w.customer.id)!.abilities).toContain('organization.ban');
    const northwind = await get<WithAbilities>(ADMIN, `/api/organizations/${w.partner.id}`);
    expect(northwind.abilities).toContain('organization.save');
    expect(northwind.abilities).not.toContain('organization.ban');
  });

  it('carries the license abilities of the caller in the pending list and the license', async () => {
    await make.license(w.customer, 'requested');
    const pending = await get<{ licenses: Array<WithAbilities & { license_id: string }> }>(SUPERVISOR, '/api/approve');
    expect(pending.licenses.length).toBeGreaterThan(0);
    expect(pending.licenses[0].abilities).toEqual(expect.arrayContaining(['license.approve', 'license.reject']));
    const license = await get<WithAbilities>(SUPERVISOR, `/api/licenses/${pending.licenses[0].license_id}`);
    expect(license.abilities).toEqual(pending.licenses[0].abilities);
  });
});
