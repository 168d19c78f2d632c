/**
 * The organization list's CSV export (docs/decisions.md "CSV export"): every organization the JSON
 * list gives the caller under the same filter and order, read back with a CSV parser; authorized as
 * the list is; journaled in the caller's organization's journal.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import { testDialects } from '../../../test/support/databases';
import { useTestApp } from '../../../test/support/test-app';
import { factories, type Cooperation } from '../../../test/support/factories';
import type { Organization } from '../../../common/schemas/organization';

const dialects = await testDialects();
const HEADER = ['organization_id', 'organization_name', 'organization_role', 'parent_organization', 'parent_organization_name', 'website',
  'address', 'domains', 'banned', 'date_organization_banned', 'ban_note', 'your_roles'];
const neutral = (text: string | null) => (text === null ? '' : /^[=+\-@\t\r]/.test(text) ? `'${text}` : text);

describe.each(dialects)('organization CSV export on %s', (dialect) => {
  const t = useTestApp(dialect, { demo: false });
  const make = factories(t);
  let w: Cooperation;

  beforeAll(async () => {
    w = await make.cooperation();
    await make.organization({ parent: w.partner, name: '+Plus, "Quoted" Straße 😀' });
    await make.organization({ parent: w.partner, name: `Contoso ${Date.now()}` });
  });

  const listed = async (query: string, as: string) => {
    const res = await t.call(as, { method: 'GET', url: `/api/organizations?limit=1000${query ? `&${query}` : ''}` });
    expect(res.statusCode).toBe(200);
    return (res.json() as Organization[]).map((o) => [o.organization_id, neutral(o.organization_name), o.organization_role, o.parent_organization ?? '',
      neutral(o.parent_organization_name), neutral(o.website), neutral(o.address), o.domains.join('; '), String(o.date_organization_banned !== null),
      o.date_organization_banned ?? '', neutral(o.ban_note), o.roles.map((r) => `${r.role} (${r.scope})`).join('; ')]);
  };
  const exported = async (query: string, as: string) => {
    const res = await t.call(as, { method: 'GET', url: `/api/organizations.csv${query ? `?${query}` : ''}` });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="organizations-all-2026-03-15.csv"');
    const rows: string[][] = parse(res.rawPayload.toString('utf8'), { bom: true, record_delimiter: '\r\n' });
    expect(rows[0]).toEqual(HEADER);
    return rows.slice(1);
  };

  it('exports every organization the list shows the caller, under each filter and order', async () => {
    for (const query of ['', 'filter=straße', 'filter=customer', 'sort=-organization_name']) {
      for (const as of [w.operatorAdmin.email, w.partnerAdmin.email, w.member.email]) {
        expect(await exported(query, as), `${as} ${query}`).toEqual(await listed(query, as));
      }
    }
    const all = await exported('', w.operatorAdmin.email);
    expect(all.length).toBeGreaterThanOrEqual(6);
    expect(all.map((r) => r[1])).toContain(`'+Plus, "Quoted" Straße 😀`);
  });

  it('journals the export in the caller\'s organization\'s journal', async () => {
    const rows = await exported('filter=customer', w.partnerAdmin.email);
    const [top] = (await t.call(w.partnerAdmin.email, { method: 'GET', url: `/api/organizations/${w.partner.id}/auditrecords?limit=1` })).json();
    expect(top).toMatchObject({ reason: 'LIST_EXPORTED', member_email: w.partnerAdmin.email, message: `Exported the organizations as CSV (filter="customer"): ${rows.length} ${rows.length === 1 ? 'row' : 'rows'}.` });
  });

  it('is authorized as the list is', async () => {
    for (const as of [null, w.bannedMember.email, w.member.email, w.devops.email]) {
      const list = await t.call(as, { method: 'GET', url: '/api/organizations' });
      const csv = await t.call(as, { method: 'GET', url: '/api/organizations.csv' });
      expect(csv.statusCode, String(as)).toBe(list.statusCode);
    }
    expect((await t.call(null, { method: 'GET', url: '/api/organizations.csv' })).statusCode).toBe(401);
    expect((await t.call(w.member.email, { method: 'GET', url: '/api/organizations.csv?sort=website' })).statusCode).toBe(400);
  });
});
