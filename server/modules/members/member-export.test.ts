/**
 * The member lists' CSV export (docs/decisions.md "CSV export"): every row the JSON list gives under
 * the same filter and order, with the roles the list shows the caller, read back with a CSV parser;
 * authorized as the list is; journaled.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import { testDialects } from '../../../test/support/databases';
import { useTestApp } from '../../../test/support/test-app';
import { factories, type Cooperation } from '../../../test/support/factories';
import { expectExportAuthorizedAsList } from '../../../test/support/exports';
import type { Member } from '../../../common/schemas/member';

const dialects = await testDialects();
const HEADER = ['organization_id', 'organization_name', 'member_id', 'name', 'given_name', 'family_name', 'member_email', 'job_role',
  'mobile_phone', 'office_phone', 'address', 'banned', 'date_member_banned', 'ban_note', 'roles'];
const neutral = (text: string | null) => (text === null ? '' : /^[=+\-@\t\r]/.test(text) ? `'${text}` : text);

describe.each(dialects)('member CSV export on %s', (dialect) => {
  const t = useTestApp(dialect, { demo: false });
  const make = factories(t);
  let w: Cooperation;

  beforeAll(async () => {
    w = await make.cooperation();
    await make.member(w.customer, { name: '=cmd|"/C calc"!A0, Zoë' });
    await make.member(w.customer, { name: 'Ärger Straße 😀', banned: true, role: null });
    await make.member(w.customer, { role: 'ADMINISTRATOR', more: [{ organization: w.partner, role: 'ISSUER', scope: 'ORGANIZATION' }] });
  });

  const listed = async (url: string, query: string, as: string) => {
    const res = await t.call(as, { method: 'GET', url: `${url}?limit=1000${query ? `&${query}` : ''}` });
    expect(res.statusCode).toBe(200);
    return (res.json() as Member[]).map((m) => [m.organization_id, m.organization_name, m.member_id, neutral(m.name), neutral(m.given_name),
      neutral(m.family_name), m.member_email, neutral(m.job_role), neutral(m.mobile_phone), neutral(m.office_phone), neutral(m.address),
      String(m.date_member_banned !== null), m.date_member_banned ?? '', neutral(m.ban_note),
      m.roles.map((r) => `${r.role} (${r.scope}) in ${r.organization_name}`).join('; ')]);
  };
  const exported = async (url: string, query: string, as: string) => {
    const res = await t.call(as, { method: 'GET', url: `${url}.csv${query ? `?${query}` : ''}` });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="members-[A-Za-z0-9-]+-2026-03-15\.csv"$/);
    const rows: string[][] = parse(res.rawPayload.toString('utf8'), { bom: true, record_delimiter: '\r\n' });
    expect(rows[0]).toEqual(HEADER);
    return rows.slice(1);
  };

  it('exports every row of an organization\'s list and of the users list, as the JSON list gives them', async () => {
    for (const query of ['', 'filter=zoë', 'filter=issuer', 'sort=-member_email', 'sort=organization_name']) {
      const own = `/api/organizations/${w.customer.id}/members`;
      for (const as of [w.member.email, w.partnerAdmin.email]) {
        expect(await exported(own, query, as), `${as} ${query}`).toEqual(await listed(own, query, as));
      }
      for (const as of [w.operatorAdmin.email, w.partnerAdmin.email]) {
        expect(await exported('/api/members', query, as), `${as} ${query}`).toEqual(await listed('/api/members', query, as));
      }
    }
    const own = await exported(`/api/organizations/${w.customer.id}/members`, '', w.partnerAdmin.email);
    expect(own).toHaveLength(5);
    expect(own.map((r) => r[3])).toContain(`'=cmd|"/C calc"!A0, Zoë`);
    expect(own.filter((r) => r[11] === 'true')).toHaveLength(1);
  });

  it('journals the export', async () => {
    const rows = await exported(`/api/organizations/${w.customer.id}/members`, 'sort=-member_email', w.partnerAdmin.email);
    const [top] = (await t.call(w.member.email, { method: 'GET', url: `/api/organizations/${w.customer.id}/auditrecords?limit=1` })).json();
    expect(top).toMatchObject({ reason: 'LIST_EXPORTED', member_email: w.partnerAdmin.email, message: `Exported the members of ${w.customer.name} as CSV (sort="-member_email"): ${rows.length} rows.` });
  });

  it('is authorized as the list is', async () => {
    await expectExportAuthorizedAsList(t, w, 'members', '/api/members');
    expect((await t.call(w.member.email, { method: 'GET', url: `/api/organizations/${w.customer.id}/members.csv?sort=job_role` })).statusCode).toBe(400);
  });
});
