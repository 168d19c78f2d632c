/**
 * The pending lists' CSV exports (docs/decisions.md "CSV export"): each of the four lists of GET
 * /api/approve and GET /api/acknowledge, read back with a CSV parser, holds exactly the JSON list's
 * rows in its order under each sort, with the columns of the certificate and license exports;
 * authorized as the lists (their callers, their organizations); journaled.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import type { Insertable } from 'kysely';
import type { CertificatesTable } from '../../db/schema';
import { testDialects } from '../../../test/support/databases';
import { useTestApp } from '../../../test/support/test-app';
import { factories, type Cooperation } from '../../../test/support/factories';
import type { Pending } from '../../../common/schemas/pending';
import type { CertificateSummary } from '../../../common/schemas/certificate';
import type { License } from '../../../common/schemas/license';
import { PENDING_CERTIFICATE_SORTS, PENDING_LICENSE_SORTS } from '../../../common/sorts';
import { certificateStatus, licenseStatus } from '../../../common/status';

const dialects = await testDialects();
const DAY = 86_400_000;
const CERTIFICATE_HEADER = ['organization_id', 'organization_name', 'distinguished_name', 'approval', 'valid', 'expired', 'description', 'owner_member_id',
  'owner_name', 'date_not_before', 'date_not_after', 'date_approved', 'date_revoked', 'date_expiry_acknowledged', 'date_created', 'fingerprint_sha256'];
const LICENSE_HEADER = ['organization_id', 'organization_name', 'license_id', 'license_name', 'license_scope', 'approval', 'valid', 'expired', 'days_left',
  'extension', 'date_valid_from', 'days_valid', 'date_valid_until', 'time_zone', 'note', 'date_approved', 'date_rejected', 'date_expiry_acknowledged',
  'extended_by_license_id', 'extended_by_license_name', 'date_created'];
const neutral = (text: string) => (/^[=+\-@\t\r]/.test(text) ? `'${text}` : text);
/** More than one batch of the export (1,000 rows). */
const MANY = 1_050;

type Kind = 'approve' | 'acknowledge';
type List = 'certificates' | 'licenses';
const KINDS: Kind[] = ['approve', 'acknowledge'];
const LISTS: List[] = ['certificates', 'licenses'];
const SORTS: Record<List, readonly string[]> = {
  certificates: ['', ...PENDING_CERTIFICATE_SORTS.flatMap((s) => [s, `-${s}`])],
  licenses: ['', ...PENDING_LICENSE_SORTS.flatMap((s) => [s, `-${s}`])],
};

describe.each(dialects)('pending tasks CSV export on %s', (dialect) => {
  const t = useTestApp(dialect, { demo: false });
  const make = factories(t);
  let w: Cooperation;
  let many: string;

  beforeAll(async () => {
    w = await make.cooperation();
    for (const [i, organization] of [w.customer, w.partner, w.customer].entries()) {
      await make.certificate(organization, 'requested', { description: i === 0 ? '=HYPERLINK("x"), "quoted"\nsecond line' : `Straße ${i} 😀` });
      await make.certificate(organization, 'expired', { owner: i === 0 ? w.member.id : null });
      await make.certificate(organization, 'acknowledged');
      await make.license(organization, 'requested', { note: i === 0 ? '@SUM(A1)' : null });
      await make.license(organization, 'expired');
      await make.license(organization, 'extension-requested');
      await make.license(organization, 'approved');
    }
    // More certificate approvals than one batch, in a customer of the partner, written straight into the table.
    many = (await make.organization({ parent: w.partner, name: `Many ${randomUUID().slice(0, 8)}` })).id;
    const now = t.clock.now().getTime();
    const iso = (ms: number) => new Date(ms).toISOString();
    const rows: Insertable<CertificatesTable>[] = Array.from({ length: MANY }, (_, i) => {
      const dn = `CN=wait-${String((i * 7919) % MANY).padStart(5, '0')}.many.example`;
      return {
        distinguished_name: dn, dn_search: dn.toLowerCase(), organization_id: many, description: '', owner_member_id: null, approver_member_id: null,
        date_not_before: iso(now - 10 * DAY), date_not_after: iso(now + 300 * DAY + Math.floor(i / 7) * 60_000), date_approved: null, date_revoked: null,
        date_expiry_acknowledged: null, date_created: iso(now - 100 * DAY + Math.floor(i / 10) * 60_000),
        certificate_pem: 'not read by the lists', serial_number: String(i), signature: '00', signature_algorithm: 'ecdsa-with-SHA256', version: 3,
      };
    });
    for (let i = 0; i < rows.length; i += 500) await t.db.insertInto('certificates').values(rows.slice(i, i + 500)).execute();
  });

  /** Every row of one pending list as the JSON answers page it (1,000 a page), in the columns of the export. */
  async function listed(as: string, kind: Kind, list: List, sort: string): Promise<string[][]> {
    const rows: string[][] = [];
    const now = t.clock.now();
    // The stored fingerprints (the lists do not carry them): the rows written straight into the table have none.
    const stored = await t.db.selectFrom('certificates').select(['distinguished_name', 'fingerprint_sha256']).execute();
    fingerprints = new Map(stored.map((r) => [r.distinguished_name, r.fingerprint_sha256 ?? '']));
    const param = list === 'certificates' ? 'certificatesSort' : 'licensesSort';
    for (let offset = 0; ; offset += 1000) {
      const res = await t.call(as, { method: 'GET', url: `/api/${kind}?limit=1000&${list}Offset=${offset}${sort ? `&${param}=${sort}` : ''}` });
      expect(res.statusCode, res.body).toBe(200);
      const page: Pending = res.json();
      if (list === 'certificates') rows.push(...page.certificates.map((c) => certificateRow(c, now)));
      else rows.push(...page.licenses.map((l) => licenseRow(l, now)));
      if (page[list].length < 1000) return rows;
    }
  }
  let fingerprints = new Map<string, string>();
  const certificateRow = (c: CertificateSummary, now: Date) => {
    const status = certificateStatus(c, now);
    return [c.organization_id, c.organization_name, c.distinguished_name, status.approval, String(status.valid), String(status.expired), neutral(c.description),
      c.owner?.member_id ?? '', c.owner?.name ?? '', c.date_not_before, c.date_not_after, c.date_approved ?? '', c.date_revoked ?? '',
      c.date_expiry_acknowledged ?? '', c.date_created, fingerprints.get(c.distinguished_name) ?? 'missing'];
  };
  const licenseRow = (l: License, now: Date) => {
    const status = licenseStatus(l, now);
    return [l.organization_id, l.organization_name, l.license_id, l.license_name, l.license_scope, status.approval, String(status.valid),
      String(status.expired), String(l.days_left), status.extension ?? '', l.date_valid_from, String(l.days_valid), l.date_valid_until, l.time_zone,
      l.note === null ? '' : neutral(l.note), l.date_approved ?? '', l.date_rejected ?? '', l.date_expiry_acknowledged ?? '',
      l.extended_by?.license_id ?? '', l.extended_by?.license_name ?? '', l.date_created];
  };
  const fileName = (kind: Kind, list: List) => `pending-${list === 'certificates' ? 'certificate' : 'license'}-${kind === 'approve' ? 'approvals' : 'acknowledgements'}-all-2026-03-15.csv`;

  async function exported(as: string, kind: Kind, list: List, sort: string): Promise<string[][]> {
    const res = await t.call(as, { method: 'GET', url: `/api/${kind}/${list}.csv${sort ? `?sort=${sort}` : ''}` });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="${fileName(kind, list)}"`);
    const rows: string[][] = parse(res.rawPayload.toString('utf8'), { bom: true, record_delimiter: '\r\n' });
    expect(rows[0]).toEqual(list === 'certificates' ? CERTIFICATE_HEADER : LICENSE_HEADER);
    return rows.slice(1);
  }

  it('exports every row of each pending list in the JSON list\'s order, under each of its sorts, beyond one batch', async () => {
    for (const kind of KINDS) {
      for (const list of LISTS) {
        for (const sort of SORTS[list]) {
          expect(await exported(w.supervisor.email, kind, list, sort), `${kind} ${list} ${sort}`).toEqual(await listed(w.supervisor.email, kind, list, sort));
        }
      }
    }
    const approvals = await exported(w.supervisor.email, 'approve', 'certificates', '');
    expect(approvals.filter((r) => r[0] === many)).toHaveLength(MANY);
    expect(approvals.map((r) => r[6])).toContain(`'=HYPERLINK("x"), "quoted"\nsecond line`);
    expect(new Set(approvals.map((r) => r[3]))).toEqual(new Set(['NOT_APPROVED']));
    const expired = await exported(w.supervisor.email, 'acknowledge', 'licenses', '');
    expect(expired.length).toBeGreaterThanOrEqual(3);
    expect(expired.every((r) => r[7] === 'true')).toBe(true);
  });

  it('holds only the rows of the organizations where the caller has a role, as the lists do', async () => {
    for (const as of [w.issuer.email, w.member.email, w.partnerAdmin.email, w.devops.email]) {
      for (const kind of KINDS) {
        for (const list of LISTS) {
          const rows = await exported(as, kind, list, '');
          expect(rows, `${as} ${kind} ${list}`).toEqual(await listed(as, kind, list, ''));
          if (as === w.issuer.email) expect(rows.every((r) => r[0] === w.customer.id), `${kind} ${list}`).toBe(true);
        }
      }
    }
    expect((await exported(w.issuer.email, 'approve', 'certificates', '')).length).toBe(2);
  });

  it('is refused as the lists are: 401 without a token, 403 for a banned organization, 400 for a bad sort or an unknown parameter', async () => {
    for (const kind of KINDS) {
      for (const list of LISTS) {
        for (const as of [null, w.bannedMember.email]) {
          const json = await t.call(as, { method: 'GET', url: `/api/${kind}` });
          const csv = await t.call(as, { method: 'GET', url: `/api/${kind}/${list}.csv` });
          expect(json.statusCode).not.toBe(200);
          expect(csv.statusCode, `${as} ${kind} ${list}`).toBe(json.statusCode);
          expect(csv.json()).toEqual(json.json());
        }
        for (const query of ['sort=description', 'sort=', `sort=${list === 'certificates' ? 'license_name' : 'distinguished_name'}`, 'offset=100', 'certificatesSort=date_created']) {
          const res = await t.call(w.supervisor.email, { method: 'GET', url: `/api/${kind}/${list}.csv?${query}` });
          expect(res.statusCode, `${kind} ${list} ${query}: ${res.body}`).toBe(400);
          expect(res.json()).toMatchObject({ severity: 'ERROR', field: query.split('=')[0] });
        }
      }
    }
  });

  it('journals each export in the caller\'s organization\'s journal: which list, its order, how many rows', async () => {
    const top = async () => (await t.call(w.partnerAdmin.email, { method: 'GET', url: `/api/organizations/${w.partner.id}/auditrecords?limit=1` })).json()[0];
    const rows = await exported(w.partnerAdmin.email, 'approve', 'certificates', '-date_created');
    expect(await top()).toMatchObject({
      reason: 'LIST_EXPORTED', member_email: w.partnerAdmin.email,
      message: `Exported the pending certificate approvals as CSV (sort="-date_created"): ${rows.length.toLocaleString('en-US')} rows.`,
    });
    const licenses = await exported(w.partnerAdmin.email, 'acknowledge', 'licenses', '');
    expect(await top()).toMatchObject({ reason: 'LIST_EXPORTED', message: `Exported the expired licenses to acknowledge as CSV (no filters): ${licenses.length} rows.` });
  });
});
