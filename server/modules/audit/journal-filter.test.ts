/**
 * The journal's text filter through the trigram index (migration 0011): whichever way a page is
 * found (the newest records, the index, or the walk), it holds exactly what a plain substring search
 * over every record finds, with the true total; for records there before the index and records
 * written after it, for short filters, special characters and non-ASCII text.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { isPostgres } from '../../db/database';
import { migrator } from '../../db/migrate';
import { containsIgnoringCase } from '../../db/text-filter';
import { createTestDatabase, testDialects, type TestDatabase } from '../../../test/support/databases';
import { audit, type AuditReason } from '../../db/audit';
import { FILTER_TUNING, listAuditRecords, type FilterTuning } from './repository';
import { rareTrigramCandidates, wordTrigrams } from './trigram-statistics';

const dialects = await testDialects();
const BEFORE_INDEX = '20261123_0010_data_epoch';

const MESSAGES = [
  'Uploaded certificate CN=device-004242.contoso.example,OU=Gateways,O=Contoso,C=DE.',
  'Approved certificate CN=DEVICE-000424.contoso.example.',
  'Requested license Contoso Production 00711 (PRODUCTION, 365 days from 2026-11-23).',
  'Saved member mats.fischer.001997@contoso.example (name, mobile phone).',
  'Uploaded certificate CN=gw17.contoso.example (100%_sure).',
  'Uploaded certificate CN=gw17x.contoso.example (100 percent sure).',
  "Saved organization O'Brien & Söhne (address).",
  'Saved member "quoted" name.',
  'Path C:\\temp\\back\\slash saved.',
  'Ärger über die Straße in İstanbul.',
  'ärger ÜBER die STRASSE in istanbul.',
  'Naïve café — 東京 office, emoji 😀 here.',
  'NEAR(device, 5) AND OR NOT * ^ {a b} col:umn',
  'Tabs\tand\nlines.',
  'ab',
  'x',
  'zz',
  '%',
  '_',
  '\\',
];
// Reasons that are not events: records written before the events table's migration go through the audit path too.
const REASONS: AuditReason[] = ['CERTIFICATE_DESCRIPTION_CHANGED', 'LICENSE_EXPIRY_ACKNOWLEDGED', 'MEMBER_SAVED', 'RESOURCE_GRANTED', 'ORGANIZATION_SAVED'];

const FILTERS = [
  // one and two characters
  'a', 'A', 'x', 'z', '%', '_', '\\', "'", '"', '*', '-', 'ä', 'Ä', 'ü', 'ß', 'é', '😀', '東', ' ',
  'ab', 'AB', 'zz', '%_', '_s', '\\t', "'B", 'üb', 'ÜB', '00', '17', 'e ', 'st',
  // three and more
  'device-004242', 'DEVICE-004242', 'device-000424', '004242', '0424', 'mats.fischer.001997', 'contoso', 'CONTOSO',
  'certificate', 'uploaded certificate', 'gw17', 'GW17.', '100%_sure', '100%', '%_s', '_su', 'it\'s', "o'brien", '"quoted"', '"qu',
  'c:\\temp', 'back\\slash', '\\\\', 'straße', 'STRASSE', 'über', 'ÜBER', 'ärger', 'Ärger', 'istanbul', 'İstanbul', 'i̇st',
  'naïve', 'NAÏVE', 'café —', '東京', '😀 here', 'near(device', 'and or not', '* ^', '{a b}', 'col:umn', 'tabs\tand', 'and\nlines',
  'member_saved', 'MEMBER_SAVED', 'resource_', 'zzq', 'no such text anywhere', '  gw17  ', '---', '...',
];

/** Ways to the page: the defaults (all from the newest records here), the index, the walk, a rare-trigram bound that makes every trigram common, the candidates first. */
const TUNINGS: Array<[string, FilterTuning]> = [
  ['defaults', FILTER_TUNING],
  ['index', { ...FILTER_TUNING, head: 3, common: 10_000 }],
  ['walk', { ...FILTER_TUNING, head: 3, common: 0 }],
  ['common trigrams', { head: 3, common: 10_000, rareTrigram: 2, estimatedTrigram: 2 }],
  // More records in the organization than a rare trigram's: SQLite reads the candidates first.
  ['candidates first', { head: 3, common: 10_000, rareTrigram: 20, estimatedTrigram: 20 }],
];
const PAGES: Array<[number, number]> = [[0, 100], [0, 3], [2, 5], [7, 1000], [500, 10]];

describe.each(dialects)('journal text filter on %s', (dialect) => {
  let database: TestDatabase;
  const a = randomUUID();
  const b = randomUUID();
  let written = 0;
  /** The records written before the index existed (beforeAll); no test changes them. */
  let beforeIndex: number[] = [];

  /**
   * Through the real audit path, each in its own transaction, as services write: to `into.a`
   * mostly, some to `into.b` and some to no organization. A test that changes records writes
   * its own, to organizations of its own.
   */
  const write = async (count: number, into = { a, b }) => {
    for (let i = 0; i < count; i++, written++) {
      const organization_id = written % 7 === 3 ? into.b : written % 11 === 5 ? null : into.a;
      await database.db.transaction().execute((tx) => audit(tx, {
        reason: REASONS[written % REASONS.length],
        message: MESSAGES[written % MESSAGES.length],
        organization_id,
        member_email: `m${written}@contoso.example`,
        now: new Date(Date.UTC(2026, 0, 1, 0, 0, written)),
      }));
    }
  };

  /** A plain substring search: the filter's LIKE over every record of the organization, no index, no shortcut. */
  const plain = async (organizationId: string, filter: string) => {
    const f = filter.trim();
    const rows = await database.db.selectFrom('audit_records').select(['record_id', 'reason', 'date_created', 'member_email', 'message'])
      .where('organization_id', '=', organizationId)
      .where((eb) => eb.or([containsIgnoringCase(database.db, 'reason', f), containsIgnoringCase(database.db, 'message', f)]))
      .orderBy('record_id', 'desc').execute();
    return rows.map((r) => ({ ...r, record_id: Number(r.record_id) }));
  };

  const expectSameAsPlain = async (organizationId: string, filters = FILTERS) => {
    for (const filter of filters) {
      const expected = await plain(organizationId, filter);
      for (const [name, tuning] of TUNINGS) {
        for (const [offset, limit] of PAGES) {
          const got = await listAuditRecords(database.db, organizationId, { filter, offset, limit }, tuning);
          const label = `${JSON.stringify(filter)} ${name} offset ${offset} limit ${limit}`;
          expect(got.rows, label).toEqual(expected.slice(offset, offset + limit));
          expect(got.total, label).toBe(expected.length);
        }
      }
    }
  };

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    // Records from before the index: the migration must index them.
    expect((await migrator(database.db).migrateTo(BEFORE_INDEX)).error).toBeUndefined();
    await write(120);
    beforeIndex = (await database.db.selectFrom('audit_records').select('record_id').execute()).map((r) => Number(r.record_id));
    expect(beforeIndex).toHaveLength(120);
    expect((await migrator(database.db).migrateToLatest()).error).toBeUndefined();
  });
  afterAll(async () => database?.drop());

  it('indexes the records there before the migration', async () => {
    const { db } = database;
    if (isPostgres(db)) {
      const { rows } = await sql<{ indexdef: string }>`select indexdef from pg_indexes where indexname = 'audit_records_text'`.execute(db);
      expect(rows[0].indexdef).toContain('gin_trgm_ops');
      // Migration 0014 analyzed them: the trigrams most records hold are known.
      const common = await sql<{ gram: string }>`select unnest(most_common_elems::text::text[]) as gram from pg_stats_ext_exprs where statistics_name = 'audit_records_trigrams'`.execute(db);
      expect(common.rows.map((r) => r.gram)).toContain('cer');
    } else {
      // Every record written before the index, whatever the tests wrote since.
      const indexed = await sql<{ rowid: number }>`select rowid from audit_records_text`.execute(db);
      const rowids = new Set(indexed.rows.map((r) => Number(r.rowid)));
      expect(beforeIndex.filter((id) => rowids.has(id))).toHaveLength(120);
    }
    await expectSameAsPlain(a);
  });

  it('finds records written after the index existed (kept in step by triggers on SQLite)', async () => {
    await write(140);
    await expectSameAsPlain(a);
    await expectSameAsPlain(b, ['device-004242', 'ärger', 'ab', 'x', '100%_sure', 'contoso', 'zzq']);
  });

  it('follows a record that is changed or removed, though the journal never does either', async () => {
    const { db } = database;
    const c = randomUUID();
    await write(40, { a: c, b: randomUUID() });
    const [first, second] = await db.selectFrom('audit_records').select('record_id').where('organization_id', '=', c).orderBy('record_id').limit(2).execute();
    await db.updateTable('audit_records').set({ message: 'Renamed to qwertyuiop.' }).where('record_id', '=', first.record_id).execute();
    await db.deleteFrom('audit_records').where('record_id', '=', second.record_id).execute();
    const index = TUNINGS[1][1];
    const renamed = await listAuditRecords(db, c, { filter: 'qwertyuiop', offset: 0, limit: 10 }, index);
    expect(renamed.rows.map((r) => r.record_id)).toEqual([Number(first.record_id)]);
    await expectSameAsPlain(c, ['qwertyuiop', 'device-004242', 'certificate', 'ab']);
    if (!isPostgres(db)) {
      const stale = await sql<{ rowid: number }>`select rowid from audit_records_text where audit_records_text match '"004" AND "242"'`.execute(db);
      expect(stale.rows.map((r) => Number(r.rowid))).not.toContain(Number(second.record_id));
      expect(stale.rows.map((r) => Number(r.rowid))).not.toContain(Number(first.record_id));
    }
  });

  it.runIf(dialect === 'postgres')('looks candidates up by the trigrams the statistics do not call common', async () => {
    const { db } = database;
    await sql`analyze audit_records`.execute(db);
    const like = (pattern: string) => sql<boolean>`x like ${pattern}`;
    const text = async (filter: string) => {
      const narrow = await rareTrigramCandidates(db, 'audit_records_trigrams', like, filter, 20);
      return narrow && narrow.compile(db).parameters;
    };
    // 'cer', 'tif', 'ica' are in more than 20 records: no lookup; of 'qwerty' all but 'ert' are rare.
    expect(await text('certificate')).toBeNull();
    expect(await text('Certificate qwerty')).toEqual(['%qwe%', '%wer%', '%rty%']);
    expect(await text('---')).toBeNull();
    expect(wordTrigrams('a-bcd ÄRGER'.toLowerCase())).toEqual(['bcd', 'ärg', 'rge', 'ger']);
    await expectSameAsPlain(a, FILTERS.filter((f) => f.trim()));
  });

  it('matches case-insensitively as a substring, as users see it', async () => {
    const d = randomUUID();
    await write(200, { a: d, b: randomUUID() });
    const ascii = async (filter: string) => (await listAuditRecords(database.db, d, { filter, offset: 0, limit: 1000 }, TUNINGS[1][1])).rows;
    const all = await plain(d, ' ');
    expect(all.length).toBeGreaterThan(150);
    for (const filter of ['GW17', 'device-004242', '100%_SURE', "O'BRIEN", 'mats.FISCHER', 'resource_granted', 'ab']) {
      const needle = filter.toLowerCase();
      const expected = all.filter((r) => r.message.toLowerCase().includes(needle) || r.reason.toLowerCase().includes(needle));
      expect((await ascii(filter)).map((r) => r.record_id), filter).toEqual(expected.map((r) => r.record_id));
      expect(expected.length, filter).toBeGreaterThan(0);
    }
  });
});
