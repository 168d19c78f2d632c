/**
 * Each organization's number of certificates and licenses (migration 0036), the total of its unfiltered lists:
 * kept by triggers as rows come, go and move between organizations, filled in from the rows when the migration
 * runs, and gone with it again, on both engines.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '../../test/support/databases';
import { useTestApp } from '../../test/support/test-app';
import { factories, type Cooperation } from '../../test/support/factories';
import { migrator } from './migrate';
import { listCertificateKeys, listCertificates } from '../modules/certificates/repository';

const dialects = await testDialects();

describe.each(dialects)('organizations\' list counts on %s', (dialect) => {
  const t = useTestApp(dialect, { demo: false });
  const make = factories(t);
  let w: Cooperation;
  beforeAll(async () => {
    w = await make.cooperation();
  });
  const counts = async (id: string) => {
    const row = await t.db.selectFrom('organization_counters').selectAll().where('organization_id', '=', id).executeTakeFirstOrThrow();
    return { certificates: Number(row.certificates), licenses: Number(row.licenses) };
  };
  const total = async (id: string, list: 'certificates' | 'licenses', query = '') => {
    const res = await t.call(w.supervisor.email, { method: 'GET', url: `/api/organizations/${id}/${list}${query}` });
    expect(res.statusCode, res.body).toBe(200);
    return Number(res.headers['x-total-count']);
  };

  it('follows rows that come, go and move, and is what an unfiltered list counts', async () => {
    const a = await make.organization({ parent: w.partner });
    const b = await make.organization({ parent: w.partner });
    const moved = await make.certificate(a, 'approved');
    await make.certificate(a, 'requested');
    await make.license(a, 'approved');
    expect(await counts(a.id)).toEqual({ certificates: 2, licenses: 1 });
    expect([await total(a.id, 'certificates'), await total(a.id, 'licenses')]).toEqual([2, 1]);

    await t.db.updateTable('certificates').set({ organization_id: b.id }).where('distinguished_name', '=', moved.dn).execute();
    expect([await counts(a.id), await counts(b.id)]).toEqual([{ certificates: 1, licenses: 1 }, { certificates: 1, licenses: 0 }]);
    // An update that names the same organization moves nothing.
    await t.db.updateTable('certificates').set({ organization_id: b.id, description: 'same place' }).where('distinguished_name', '=', moved.dn).execute();
    expect(await counts(b.id)).toEqual({ certificates: 1, licenses: 0 });
    await t.db.deleteFrom('certificates').where('distinguished_name', '=', moved.dn).execute();
    expect(await counts(b.id)).toEqual({ certificates: 0, licenses: 0 });
    expect(await total(b.id, 'certificates')).toBe(0);
    // A filtered list still counts its rows.
    expect(await total(a.id, 'certificates', '?hideRequests=true')).toBe(0);
  });

  it('starts a deep page of every organization\'s certificates from its organization\'s count: the same pages as an offset', async () => {
    // 1,250 certificates in five new organizations (400, 0, 300, 500, 50), written straight into the table: pages past
    // 1,000 start from the counts, and their rows must be the rows the full order has at that offset, both ways.
    const sizes = [400, 0, 300, 500, 50];
    for (const [i, size] of sizes.entries()) {
      const o = await make.organization({ parent: w.partner, name: `Counted ${i}` });
      const rows = Array.from({ length: size }, (_, j) => ({
        distinguished_name: `CN=counted-${i}-${String(j).padStart(4, '0')}.example`, dn_search: `cn=counted-${i}-${String(j).padStart(4, '0')}.example`,
        serial_number: `${i}${j}`, signature: 'AA', signature_algorithm: 'ecdsa-with-SHA256', version: 3, certificate_pem: 'x', fingerprint_sha256: null,
        date_not_before: '2026-01-01T00:00:00.000Z', date_not_after: '2027-01-01T00:00:00.000Z', organization_id: o.id, description: '',
        owner_member_id: null, approver_member_id: null, date_approved: null, date_revoked: null, date_expiry_acknowledged: null, date_created: '2026-01-01T00:00:00.000Z',
      }));
      for (let k = 0; k < rows.length; k += 100) await t.db.insertInto('certificates').values(rows.slice(k, k + 100)).execute();
    }
    const now = t.clock.now();
    for (const sort of ['organization_name', '-organization_name'] as const) {
      const plain = { sort, status: undefined, hideExpired: false, hideRequests: false, hideValid: false };
      const all = await listCertificateKeys(t.db, 'all', plain, now);
      expect(all.length).toBeGreaterThanOrEqual(1_250);
      for (const offset of [999, 1_000, 1_001, all.length - 451, all.length - 450, all.length - 7, all.length, all.length + 5]) {
        const page = await listCertificates(t.db, 'all', { ...plain, offset, limit: 100 }, now);
        expect(page.rows.map((r) => r.distinguished_name), `${sort} at ${offset}`).toEqual(all.slice(offset, offset + 100));
        expect(page.total).toBe(all.length);
      }
    }
  });

  it('is filled in from the rows when the migration runs, and goes with it, keeping versions and journal numbers', async () => {
    const a = await make.organization({ parent: w.partner });
    await make.certificate(a, 'approved');
    await make.license(a, 'requested');
    await make.license(a, 'approved');
    const before = await t.db.selectFrom('organization_counters').selectAll().where('organization_id', '=', a.id).executeTakeFirstOrThrow();
    const migrations = migrator(t.db);
    expect((await migrations.migrateTo('20261202_0035_certificate_name_order')).error).toBeUndefined();
    const down = await t.db.selectFrom('organization_counters').selectAll().where('organization_id', '=', a.id).executeTakeFirstOrThrow();
    expect(down).toEqual({ organization_id: a.id, journal_records: before.journal_records, version: before.version });
    expect((await migrations.migrateToLatest()).error).toBeUndefined();
    expect(await counts(a.id)).toEqual({ certificates: 1, licenses: 2 });
    await make.certificate(a, 'requested');
    expect(await counts(a.id)).toEqual({ certificates: 2, licenses: 2 });
  });
});
