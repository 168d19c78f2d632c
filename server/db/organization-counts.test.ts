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
