/**
 * The certificate lists' CSV export (docs/decisions.md "CSV export"): every row the JSON list gives
 * under the same filters and order, statuses as the list computes them at the request's instant,
 * read back with a CSV parser; authorized as the list is; journaled.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import { testDialects } from '../../../test/support/databases';
import { useTestApp } from '../../../test/support/test-app';
import { factories, type Cooperation } from '../../../test/support/factories';
import { expectExportAuthorizedAsList } from '../../../test/support/exports';
import type { CertificateSummary } from '../../../common/schemas/certificate';
import { certificateStatus } from '../../../common/status';
import { X509Certificate } from 'node:crypto';

const dialects = await testDialects();
const HEADER = ['organization_id', 'organization_name', 'distinguished_name', 'approval', 'valid', 'expired', 'description', 'owner_member_id',
  'owner_name', 'date_not_before', 'date_not_after', 'date_approved', 'date_revoked', 'date_expiry_acknowledged', 'date_created', 'fingerprint_sha256'];
const neutral = (text: string) => (/^[=+\-@\t\r]/.test(text) ? `'${text}` : text);

describe.each(dialects)('certificate CSV export on %s', (dialect) => {
  const t = useTestApp(dialect, { demo: false });
  const make = factories(t);
  let w: Cooperation;
  /** Each certificate's SHA-256 fingerprint as Node reads it from the PEM (the lists do not carry it). */
  const fingerprints = new Map<string, string>();

  beforeAll(async () => {
    w = await make.cooperation();
    const states = ['requested', 'approved', 'future', 'expired', 'acknowledged', 'revoked'] as const;
    for (const [i, state] of states.entries()) {
      const made = [
        await make.certificate(w.customer, state, { owner: i % 2 ? w.member.id : null, description: i === 1 ? '=1+2, "quoted"\nsecond line' : `${state} Straße 😀` }),
        await make.certificate(w.partner, state),
      ];
      for (const c of made) fingerprints.set(c.dn, new X509Certificate(c.pem).fingerprint256);
    }
  });

  const listed = async (url: string, query: string, as: string) => {
    const res = await t.call(as, { method: 'GET', url: `${url}?limit=1000${query ? `&${query}` : ''}` });
    expect(res.statusCode).toBe(200);
    const now = t.clock.now();
    return (res.json() as CertificateSummary[]).map((c) => {
      const status = certificateStatus(c, now);
      return [c.organization_id, c.organization_name, c.distinguished_name, status.approval, String(status.valid), String(status.expired), neutral(c.description),
        c.owner?.member_id ?? '', c.owner?.name ?? '', c.date_not_before, c.date_not_after, c.date_approved ?? '', c.date_revoked ?? '',
        c.date_expiry_acknowledged ?? '', c.date_created, fingerprints.get(c.distinguished_name)];
    });
  };
  const exported = async (url: string, query: string, as: string) => {
    const res = await t.call(as, { method: 'GET', url: `${url}.csv${query ? `?${query}` : ''}` });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="certificates-[A-Za-z0-9-]+-2026-03-15\.csv"$/);
    const rows: string[][] = parse(res.rawPayload.toString('utf8'), { bom: true, record_delimiter: '\r\n' });
    expect(rows[0]).toEqual(HEADER);
    return rows.slice(1);
  };

  it('exports every row of an organization\'s list and of the admin list, as the JSON list gives them', async () => {
    const queries = ['', 'hideExpired=true', 'hideRequests=1&hideValid=true', 'name=Straße', 'name=APPROVED-', 'sort=-date_not_after', 'sort=date_created&hideExpired=true'];
    for (const query of queries) {
      const own = `/api/organizations/${w.customer.id}/certificates`;
      expect(await exported(own, query, w.member.email), query).toEqual(await listed(own, query, w.member.email));
      for (const as of [w.approver.email, w.partnerAdmin.email]) {
        expect(await exported('/api/certificates', query, as), `${as} ${query}`).toEqual(await listed('/api/certificates', query, as));
      }
    }
    const all = await exported('/api/certificates', '', w.approver.email);
    expect(all.length).toBe(12);
    expect(all.map((r) => r[6])).toContain(`'=1+2, "quoted"\nsecond line`);
    expect(new Set(all.map((r) => r[3]))).toEqual(new Set(['APPROVED', 'NOT_APPROVED', 'REVOKED']));
    // The fingerprint is the added last column: openssl's form, one per certificate.
    expect(all.every((r) => /^([0-9A-F]{2}:){31}[0-9A-F]{2}$/.test(r[15]))).toBe(true);
    expect(new Set(all.map((r) => r[15])).size).toBe(12);
  });

  it('exports the certificates a member owns, as the member\'s list gives them, authorized and journaled as it', async () => {
    const owned = `/api/organizations/${w.customer.id}/members/${w.member.id}/certificates`;
    for (const query of ['', 'hideExpired=true', 'sort=-date_not_after']) {
      expect(await exported(owned, query, w.partnerAdmin.email), query).toEqual(await listed(owned, query, w.partnerAdmin.email));
    }
    expect(await exported(owned, '', w.member.email)).toHaveLength(3);
    const [top] = (await t.call(w.member.email, { method: 'GET', url: `/api/organizations/${w.customer.id}/auditrecords?limit=1` })).json();
    expect(top).toMatchObject({ reason: 'LIST_EXPORTED', member_email: w.member.email, message: `Exported the certificates of ${w.member.email} as CSV (no filters): 3 rows.` });
    for (const [as, url] of [
      [null, owned], [w.partnerIssuer.email, owned], [w.member.email, `/api/organizations/${w.customer.id}/members/no-such-member/certificates`],
      [w.member.email, `/api/organizations/${w.customer.id}/members/${w.partnerAdmin.id}/certificates`],
    ] as const) {
      const list = await t.call(as, { method: 'GET', url });
      const csv = await t.call(as, { method: 'GET', url: `${url}.csv` });
      expect(csv.statusCode, `${as} ${url}`).toBe(list.statusCode);
      expect(list.statusCode).not.toBe(200);
      expect(csv.json()).toEqual(list.json());
    }
  });

  it('journals the export in the organization\'s journal, and the admin export in the caller\'s', async () => {
    await exported(`/api/organizations/${w.customer.id}/certificates`, 'hideExpired=true', w.partnerAdmin.email);
    const [top] = (await t.call(w.member.email, { method: 'GET', url: `/api/organizations/${w.customer.id}/auditrecords?limit=1` })).json();
    expect(top).toMatchObject({ reason: 'LIST_EXPORTED', member_email: w.partnerAdmin.email, message: `Exported the certificates of ${w.customer.name} as CSV (hideExpired=true): 4 rows.` });
    await exported('/api/certificates', '', w.partnerAdmin.email);
    const [mine] = (await t.call(w.partnerAdmin.email, { method: 'GET', url: `/api/organizations/${w.partner.id}/auditrecords?limit=1` })).json();
    expect(mine).toMatchObject({ reason: 'LIST_EXPORTED', message: 'Exported the certificates of all organizations as CSV (no filters): 12 rows.' });
  });

  it('is authorized as the list is', async () => {
    await expectExportAuthorizedAsList(t, w, 'certificates', '/api/certificates');
    expect((await t.call(w.member.email, { method: 'GET', url: `/api/organizations/${w.customer.id}/certificates.csv?sort=description` })).statusCode).toBe(400);
  });
});
