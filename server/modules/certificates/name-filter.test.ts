/**
 * The name filters of the certificate and license lists through their trigram indexes (migration
 * 0013, db/text-index.ts), through the real API: each page and X-Total-Count equal a plain LIKE over
 * the rows, for rows there before the migration and rows inserted, renamed and deleted after it, for
 * short filters, special characters and non-ASCII text.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../app';
import { isPostgres } from '../../db/database';
import { migrator } from '../../db/migrate';
import { containsLowered } from '../../db/text-filter';
import { createTestDatabase, testDialects, type TestDatabase } from '../../../test/support/databases';
import { START, TEST_CONFIG, signToken } from '../../../test/support/tokens';
import { factories } from '../../../test/support/factories';

const dialects = await testDialects();
const BEFORE_INDEX = '20261123_0012_member_indexes';

const NAMES = [
  'device-004242.contoso.example', 'DEVICE-000424.contoso.example', 'gw17 100%_sure', 'gw17x 100 percent sure', "O'Brien & Söhne",
  '"quoted" name', 'C:\\temp\\back\\slash', 'Ärger über die Straße', 'ÄRGER ÜBER DIE STRASSE', 'Naïve café — 東京 office 😀',
  'NEAR(device, 5) AND OR NOT * ^ col:umn', 'ab', 'x', 'zz', '%', '_', '\\', 'İstanbul',
];
const FILTERS = [
  'a', 'A', 'x', '%', '_', '\\', "'", '"', '*', '-', 'ä', 'Ä', 'ß', '東', '😀',
  'ab', 'zz', '%_', '_s', "'b", 'üb', '00', '17', 'e ',
  'device-004242', 'DEVICE-004242', '0424', 'contoso', 'gw17', '100%_sure', '100%', '%_s', "o'brien", '"quoted"', '"qu',
  'c:\\temp', 'back\\slash', '\\\\', 'straße', 'strasse', 'über', 'Ärger', '東京', '😀 x', 'near(device', 'and or not', '* ^',
  'col:umn', 'istanbul', 'İstanbul', 'renamed-qwertyuiop', 'no such name anywhere', '  gw17  ', '---',
];
const PAGES: Array<[number, number]> = [[0, 1000], [1, 2]];

describe.each(dialects)('certificate and license name filters on %s', (dialect) => {
  let database: TestDatabase;
  let app: FastifyInstance;
  const org: Record<string, string> = {};
  /** The operator's supervisor (the factories'), who reads every list. */
  let SUPERVISOR: string;
  let n = 0;

  const insertCertificate = async (organizationId: string, name: string) => {
    const dn = `CN=${name},SERIALNUMBER=${++n}`;
    await database.db.insertInto('certificates').values({
      distinguished_name: dn, dn_search: dn.toLowerCase(), organization_id: organizationId, description: 'test', owner_member_id: null,
      approver_member_id: null, date_not_before: '2026-01-01T00:00:00.000Z', date_not_after: '2027-01-01T00:00:00.000Z', date_approved: null,
      date_revoked: null, date_expiry_acknowledged: null, date_created: '2026-01-01T00:00:00.000Z', certificate_pem: 'PEM',
      serial_number: String(n), signature: 's', signature_algorithm: 'ecdsa-with-SHA256', version: 3,
    }).execute();
    return dn;
  };
  const insertLicense = async (organizationId: string, name: string) => {
    const license_name = `${name} #${++n}`;
    const license_id = randomUUID();
    await database.db.insertInto('licenses').values({
      license_id, license_name, name_search: license_name.toLowerCase(), license_scope: 'PRODUCTION', organization_id: organizationId,
      date_valid_from: '2026-01-01T00:00:00.000Z', days_valid: 365, date_valid_until: '2027-01-01T00:00:00.000Z', note: null, date_approved: null,
      date_rejected: null, date_expiry_acknowledged: null, approver_member_id: null, extended_by_license_id: null, version: 1, date_created: '2026-01-01T00:00:00.000Z',
    }).execute();
    return license_id;
  };
  const insertBoth = async (names = NAMES) => {
    for (const name of names) for (const o of [org.contoso, org.northwind]) {
      await insertCertificate(o, name);
      await insertLicense(o, name);
    }
  };

  /** A plain substring search: the filter's LIKE over the rows, in the list's order. */
  const plain = async (list: 'certificates' | 'licenses', organizationId: string | null, filter: string) => {
    const { db } = database;
    if (list === 'certificates') {
      let q = db.selectFrom('certificates as c').innerJoin('organizations as o', 'o.organization_id', 'c.organization_id')
        .select('c.distinguished_name as key').where(containsLowered('c.dn_search', filter));
      if (organizationId) q = q.where('c.organization_id', '=', organizationId);
      return (await q.orderBy('o.organization_name').orderBy('c.dn_search').execute()).map((r) => r.key);
    }
    let q = db.selectFrom('licenses as l').innerJoin('organizations as o', 'o.organization_id', 'l.organization_id')
      .select('l.license_id as key').where(containsLowered('l.name_search', filter));
    if (organizationId) q = q.where('l.organization_id', '=', organizationId);
    return (await q.orderBy('o.organization_name').orderBy('l.name_search').execute()).map((r) => r.key);
  };

  const get = async (url: string) => {
    const token = await signToken(database.db, { email: SUPERVISOR, email_verified: true, name: 'supervisor' });
    const res = await app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}`, 'x-requested-with': 'JavaScript' } });
    expect(res.statusCode, url).toBe(200);
    return res;
  };

  const expectSameAsPlain = async (filters = FILTERS) => {
    for (const filter of filters) {
      for (const list of ['certificates', 'licenses'] as const) {
        for (const organizationId of [org.contoso, null]) {
          const expected = await plain(list, organizationId, filter);
          const path = organizationId ? `/api/organizations/${organizationId}/${list}` : `/api/${list}`;
          for (const [offset, limit] of PAGES) {
            const res = await get(`${path}?name=${encodeURIComponent(filter)}&offset=${offset}&limit=${limit}`);
            const label = `${list} ${organizationId ? 'contoso' : 'all'} ${JSON.stringify(filter)} offset ${offset}`;
            const keys = (res.json() as Array<{ distinguished_name?: string; license_id?: string }>).map((r) => r.distinguished_name ?? r.license_id);
            expect(keys, label).toEqual(expected.slice(offset, offset + limit));
            expect(Number(res.headers['x-total-count']), label).toBe(expected.length);
          }
        }
      }
    }
  };

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    // Rows from before the index: the migration must index them.
    expect((await migrator(database.db).migrateTo(BEFORE_INDEX)).error).toBeUndefined();
    // A partner and its customer, made by the factories, with a few real certificates and licenses besides the named rows.
    const make = factories({ db: database.db, clock: { now: () => START } });
    const operator = await make.organization({ role: 'OPERATOR' });
    SUPERVISOR = (await make.member(operator, { role: 'SUPERVISOR', scope: 'COOPERATION' })).email;
    const northwind = await make.organization({ role: 'PARTNER', parent: operator, name: 'Northwind Networks' });
    const contoso = await make.organization({ parent: northwind, name: 'Contoso' });
    [org.northwind, org.contoso] = [northwind.id, contoso.id];
    for (const o of [contoso, northwind]) {
      for (const state of ['approved', 'requested'] as const) await make.license(o, state);
    }
    await insertBoth();
    expect((await migrator(database.db).migrateToLatest()).error).toBeUndefined();
    // The factories write today's columns (the fingerprint of migration 0024): their certificates come after.
    for (const o of [contoso, northwind]) {
      for (const state of ['approved', 'requested'] as const) await make.certificate(o, state);
    }
    app = await buildApp({ config: TEST_CONFIG, db: database.db, now: () => START, logger: false });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await database?.drop();
  });

  it('indexes the rows there before the migration', async () => {
    const { db } = database;
    const [certificates, licenses] = await Promise.all([
      db.selectFrom('certificates').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      db.selectFrom('licenses').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    if (isPostgres(db)) {
      const { rows } = await sql<{ indexname: string; indexdef: string }>`select indexname, indexdef from pg_indexes
        where indexname in ('certificates_text', 'licenses_text') order by indexname`.execute(db);
      expect(rows.map((r) => r.indexname)).toEqual(['certificates_text', 'licenses_text']);
      for (const r of rows) expect(r.indexdef).toContain('gin_trgm_ops');
    } else {
      const indexed = async (table: string) => Number((await sql<{ n: number }>`select count(*) as n from ${sql.raw(table)}`.execute(db)).rows[0].n);
      expect(await indexed('certificates_text')).toBe(Number(certificates.n));
      expect(await indexed('licenses_text')).toBe(Number(licenses.n));
    }
    expect(Number(certificates.n)).toBeGreaterThan(2 * NAMES.length);
    await expectSameAsPlain();
  });

  it('finds rows inserted after the index existed (kept in step by triggers on SQLite)', async () => {
    await insertBoth(['device-004242 again', 'Straße nach İstanbul', '100%_sure twice']);
    await expectSameAsPlain(['device-004242', 'straße', '100%_sure', 'istanbul', 'again', 'ab', '%']);
  });

  it('follows a row that is renamed or deleted', async () => {
    const { db } = database;
    const certificate = await insertCertificate(org.contoso, 'to-be-renamed');
    const gone = await insertCertificate(org.contoso, 'to-be-deleted-asdfghjkl');
    const license = await insertLicense(org.contoso, 'to-be-renamed');
    const goneLicense = await insertLicense(org.contoso, 'to-be-deleted-asdfghjkl');
    await db.updateTable('certificates').set({ dn_search: 'cn=renamed-qwertyuiop' }).where('distinguished_name', '=', certificate).execute();
    await db.updateTable('licenses').set({ license_name: 'renamed-qwertyuiop', name_search: 'renamed-qwertyuiop' }).where('license_id', '=', license).execute();
    await db.deleteFrom('certificates').where('distinguished_name', '=', gone).execute();
    await db.deleteFrom('licenses').where('license_id', '=', goneLicense).execute();
    const renamed = await get(`/api/organizations/${org.contoso}/certificates?name=qwertyuiop`);
    expect(renamed.json().map((r: { distinguished_name: string }) => r.distinguished_name)).toEqual([certificate]);
    const renamedLicense = await get(`/api/organizations/${org.contoso}/licenses?name=QWERTYUIOP`);
    expect(renamedLicense.json().map((r: { license_id: string }) => r.license_id)).toEqual([license]);
    for (const list of ['certificates', 'licenses']) {
      const old = await get(`/api/organizations/${org.contoso}/${list}?name=to-be-`);
      expect(old.json(), list).toEqual([]);
      expect(old.headers['x-total-count'], list).toBe('0');
    }
    await expectSameAsPlain(['renamed-qwertyuiop', 'to-be-', 'asdfghjkl', 'device-004242', 'ab']);
    if (!isPostgres(db)) {
      const stale = await sql<{ n: number }>`select count(*) as n from certificates_text where certificates_text match '"sdf" AND "ghj"'`.execute(db);
      expect(Number(stale.rows[0].n)).toBe(0);
      const staleLicenses = await sql<{ n: number }>`select count(*) as n from licenses_text where licenses_text match '"sdf" AND "ghj"'`.execute(db);
      expect(Number(staleLicenses.rows[0].n)).toBe(0);
    }
  });
});
