/**
 * The resource lists' CSV export (docs/decisions.md "CSV export"): the catalogue and an
 * organization's resources as the JSON lists give them, read back with a CSV parser; authorized as
 * the lists are; journaled.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import { testDialects } from '../../../test/support/databases';
import { useTestApp } from '../../../test/support/test-app';
import { factories, type Cooperation } from '../../../test/support/factories';
import type { Resource } from '../../../common/schemas/resource';

const dialects = await testDialects();
const HEADER = ['resource_id', 'ordinal', 'resource_name', 'resource_type', 'resource_access', 'path_pattern', 'location', 'description', 'organizations'];
const neutral = (text: string | null) => (text === null ? '' : /^[=+\-@\t\r]/.test(text) ? `'${text}` : text);

describe.each(dialects)('resource CSV export on %s', (dialect) => {
  const t = useTestApp(dialect, { demo: false });
  const make = factories(t);
  let w: Cooperation;

  beforeAll(async () => {
    w = await make.cooperation();
    await make.resource({ description: '-1, "quoted"\nStraße 😀', grants: [w.customer] });
    await make.resource({ access: 'RESTRICTED', grants: [w.customer, w.partner] });
    await make.resource({ description: null });
  });

  const listed = async (url: string, query: string, as: string) => {
    const res = await t.call(as, { method: 'GET', url: `${url}${query ? `?${query}` : ''}` });
    expect(res.statusCode).toBe(200);
    return (res.json() as Resource[]).map((r) => [r.resource_id, String(r.ordinal), neutral(r.resource_name), r.resource_type, r.resource_access,
      neutral(r.path_pattern), neutral(r.location), neutral(r.description), r.organizations.map((o) => o.organization_name).join('; ')]);
  };
  const exported = async (url: string, query: string, as: string) => {
    const res = await t.call(as, { method: 'GET', url: `${url}.csv${query ? `?${query}` : ''}` });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    const rows: string[][] = parse(res.rawPayload.toString('utf8'), { bom: true, record_delimiter: '\r\n' });
    expect(rows[0]).toEqual(HEADER);
    return rows.slice(1);
  };

  it('exports the catalogue and an organization\'s resources as the JSON lists give them', async () => {
    for (const query of ['', 'sort=-resource_name', 'filter=straße']) {
      expect(await exported('/api/resources', query, w.operatorAdmin.email), query).toEqual(await listed('/api/resources', query, w.operatorAdmin.email));
    }
    for (const query of ['', 'sort=-ordinal']) {
      const own = `/api/organizations/${w.customer.id}/resources`;
      expect(await exported(own, query, w.member.email), query).toEqual(await listed(own, query, w.member.email));
    }
    const all = await exported('/api/resources', '', w.supervisor.email);
    expect(all.length).toBeGreaterThanOrEqual(3);
    expect(all.map((r) => r[7])).toContain(`'-1, "quoted"\nStraße 😀`);
  });

  it('journals the export', async () => {
    const rows = await exported(`/api/organizations/${w.customer.id}/resources`, '', w.partnerAdmin.email);
    const [top] = (await t.call(w.member.email, { method: 'GET', url: `/api/organizations/${w.customer.id}/auditrecords?limit=1` })).json();
    expect(top).toMatchObject({ reason: 'LIST_EXPORTED', member_email: w.partnerAdmin.email, message: `Exported the resources of ${w.customer.name} as CSV (no filters): ${rows.length} ${rows.length === 1 ? 'row' : 'rows'}.` });
  });

  it('is authorized as the lists are', async () => {
    const statuses = new Set<number>();
    for (const as of [null, w.member.email, w.partnerAdmin.email, w.operatorAdmin.email, w.bannedMember.email]) {
      const list = await t.call(as, { method: 'GET', url: '/api/resources' });
      expect((await t.call(as, { method: 'GET', url: '/api/resources.csv' })).statusCode, String(as)).toBe(list.statusCode);
      statuses.add(list.statusCode);
    }
    for (const [as, org] of [[null, w.customer.id], [w.issuer.email, w.partner.id], [w.bannedMember.email, w.banned.id], [w.member.email, w.customer.id]] as const) {
      const url = `/api/organizations/${org}/resources`;
      const list = await t.call(as, { method: 'GET', url });
      expect((await t.call(as, { method: 'GET', url: `${url}.csv` })).statusCode, `${as} ${org}`).toBe(list.statusCode);
      statuses.add(list.statusCode);
    }
    expect([...statuses].sort()).toEqual([200, 401, 403, 404]);
  });
});
