/**
 * The license lists' CSV export (docs/decisions.md "CSV export"): every row the JSON list gives under
 * the same filters and order, statuses from licenseStatus at the request's instant, read back with a
 * CSV parser; authorized as the list is; journaled.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import { testDialects } from '../../../test/support/databases';
import { useTestApp } from '../../../test/support/test-app';
import { factories, type Cooperation } from '../../../test/support/factories';
import { expectExportAuthorizedAsList } from '../../../test/support/exports';
import type { License } from '../../../common/schemas/license';
import { licenseStatus } from '../../../common/status';

const dialects = await testDialects();
const HEADER = ['organization_id', 'organization_name', 'license_id', 'license_name', 'license_scope', 'approval', 'valid', 'expired', 'days_left',
  'extension', 'date_valid_from', 'days_valid', 'date_valid_until', 'time_zone', 'note', 'date_approved', 'date_rejected', 'date_expiry_acknowledged',
  'extended_by_license_id', 'extended_by_license_name', 'date_created'];
const neutral = (text: string) => (/^[=+\-@\t\r]/.test(text) ? `'${text}` : text);

describe.each(dialects)('license CSV export on %s', (dialect) => {
  const t = useTestApp(dialect, { demo: false });
  const make = factories(t);
  let w: Cooperation;

  beforeAll(async () => {
    w = await make.cooperation();
    const states = ['requested', 'approved', 'future', 'rejected', 'renewable', 'expired', 'acknowledged', 'extension-requested', 'extended'] as const;
    for (const [i, state] of states.entries()) {
      await make.license(w.customer, state, { note: i === 1 ? '@SUM(A1), "quoted"\nsecond line' : i === 2 ? null : `${state} Straße 😀` });
      await make.license(w.partner, state);
    }
  });

  const listed = async (url: string, query: string, as: string) => {
    const res = await t.call(as, { method: 'GET', url: `${url}?limit=1000${query ? `&${query}` : ''}` });
    expect(res.statusCode).toBe(200);
    const now = t.clock.now();
    return (res.json() as License[]).map((l) => {
      const status = licenseStatus(l, now);
      return [l.organization_id, l.organization_name, l.license_id, l.license_name, l.license_scope, status.approval, String(status.valid),
        String(status.expired), String(l.days_left), status.extension ?? '', l.date_valid_from, String(l.days_valid), l.date_valid_until, l.time_zone,
        l.note === null ? '' : neutral(l.note), l.date_approved ?? '', l.date_rejected ?? '', l.date_expiry_acknowledged ?? '',
        l.extended_by?.license_id ?? '', l.extended_by?.license_name ?? '', l.date_created];
    });
  };
  const exported = async (url: string, query: string, as: string) => {
    const res = await t.call(as, { method: 'GET', url: `${url}.csv${query ? `?${query}` : ''}` });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="licenses-[A-Za-z0-9-]+-2026-03-15\.csv"$/);
    const rows: string[][] = parse(res.rawPayload.toString('utf8'), { bom: true, record_delimiter: '\r\n' });
    expect(rows[0]).toEqual(HEADER);
    return rows.slice(1);
  };

  it('exports every row of an organization\'s list and of the admin list, as the JSON list gives them', async () => {
    const queries = ['', 'hideExpired=true', 'hideRequests=1&hideValid=true', 'name=renewal', 'sort=-date_valid_until', 'sort=date_created&hideExpired=true'];
    for (const query of queries) {
      const own = `/api/organizations/${w.customer.id}/licenses`;
      expect(await exported(own, query, w.member.email), query).toEqual(await listed(own, query, w.member.email));
      for (const as of [w.approver.email, w.partnerAdmin.email]) {
        expect(await exported('/api/licenses', query, as), `${as} ${query}`).toEqual(await listed('/api/licenses', query, as));
      }
    }
    const all = await exported('/api/licenses', '', w.approver.email);
    expect(all.length).toBeGreaterThanOrEqual(18);
    expect(all.map((r) => r[14])).toContain(`'@SUM(A1), "quoted"\nsecond line`);
    expect(new Set(all.map((r) => r[5]))).toEqual(new Set(['APPROVED', 'NOT_APPROVED', 'REJECTED']));
  });

  it('journals the export', async () => {
    const rows = await exported(`/api/organizations/${w.customer.id}/licenses`, 'hideExpired=true', w.partnerAdmin.email);
    const [top] = (await t.call(w.member.email, { method: 'GET', url: `/api/organizations/${w.customer.id}/auditrecords?limit=1` })).json();
    expect(top).toMatchObject({ reason: 'LIST_EXPORTED', member_email: w.partnerAdmin.email, message: `Exported the licenses of ${w.customer.name} as CSV (hideExpired=true): ${rows.length} rows.` });
  });

  it('is authorized as the list is', async () => {
    await expectExportAuthorizedAsList(t, w, 'licenses', '/api/licenses');
    expect((await t.call(w.member.email, { method: 'GET', url: `/api/organizations/${w.customer.id}/licenses.csv?sort=note` })).statusCode).toBe(400);
  });
});
