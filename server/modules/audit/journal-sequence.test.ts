/**
 * Journal pages by key (migration 0005): every organization's records are numbered 1…n in the
 * order written, by a trigger, whoever inserts them; existing records are numbered when the
 * migration runs; concurrent writers get consecutive numbers; and a page found by key is exactly
 * the page OFFSET would walk to.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { migrator } from '../../db/migrate';
import { createTestDatabase, testDialects, type TestDatabase } from '../../../test/support/databases';
import { audit } from '../../db/audit';
import { listAuditRecords } from './repository';

const dialects = await testDialects();
const record = (organization_id: string | null, i: number) => ({
  organization_id, reason: 'CERTIFICATE_UPLOADED', message: `record ${i}`, member_email: null, date_created: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
});

describe.each(dialects)('journal numbering on %s', (dialect) => {
  let database: TestDatabase;
  // Each test numbers organizations of its own: numbers count per organization, so no test sees another's records.
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
  });
  afterAll(async () => database?.drop());

  const numbers = async (organizationId: string) =>
    (await database.db.selectFrom('audit_records').select(['record_id', 'sequence']).where('organization_id', '=', organizationId).orderBy('record_id').execute()).map((r) => Number(r.sequence));
  const total = async (organizationId: string) =>
    Number((await database.db.selectFrom('organization_counters').select('journal_records').where('organization_id', '=', organizationId).executeTakeFirst())?.journal_records ?? 0);

  it('numbers the records already there when the migration runs, then every new one', async () => {
    const { db } = database;
    const a = randomUUID();
    const b = randomUUID();
    expect((await migrator(db).migrateTo('20261123_0004_access_epoch')).error).toBeUndefined();
    // Interleaved writes of two organizations and one without.
    await db.insertInto('audit_records').values(Array.from({ length: 30 }, (_, i) => record(i % 3 === 0 ? a : i % 3 === 1 ? b : null, i))).execute();
    expect((await migrator(db).migrateToLatest()).error).toBeUndefined();
    expect(await numbers(a)).toEqual(Array.from({ length: 10 }, (_, i) => i + 1));
    expect(await numbers(b)).toEqual(Array.from({ length: 10 }, (_, i) => i + 1));
    expect([await total(a), await total(b)]).toEqual([10, 10]);
    await db.insertInto('audit_records').values([record(a, 100), record(null, 101), record(a, 102)]).execute();
    expect((await numbers(a)).slice(-2)).toEqual([11, 12]);
    expect(await total(a)).toBe(12);
  });

  it('gives concurrent writers consecutive numbers, each in its own transaction', async () => {
    const { db } = database;
    const b = randomUUID();
    await db.insertInto('audit_records').values(Array.from({ length: 5 }, (_, i) => record(b, i))).execute();
    const before = await total(b);
    expect(before).toBe(5);
    await Promise.all(Array.from({ length: 20 }, (_, i) =>
      db.transaction().execute((tx) => audit(tx, { reason: 'ORGANIZATION_SAVED', message: `concurrent ${i}`, organization_id: b, member_email: null, now: new Date() })),
    ));
    const after = await numbers(b);
    expect(after).toEqual(Array.from({ length: before + 20 }, (_, i) => i + 1));
    expect(await total(b)).toBe(before + 20);
  });

  it('finds every page by key exactly as OFFSET walks to it', async () => {
    const { db } = database;
    // Twelve records, between records of another organization and of none.
    const a = randomUUID();
    const other = randomUUID();
    await db.insertInto('audit_records').values(Array.from({ length: 36 }, (_, i) => record(i % 3 === 0 ? a : i % 3 === 1 ? other : null, i))).execute();
    const walked = (await db.selectFrom('audit_records').select('record_id').where('organization_id', '=', a).orderBy('record_id', 'desc').execute()).map((r) => Number(r.record_id));
    expect(walked).toHaveLength(12);
    for (const [offset, limit] of [[0, 5], [3, 4], [10, 5], [11, 100], [12, 1], [40, 10]]) {
      const page = await listAuditRecords(db, a, { offset, limit });
      expect(page.rows.map((r) => r.record_id), `offset ${offset} limit ${limit}`).toEqual(walked.slice(offset, offset + limit));
      expect(page.total).toBe(walked.length);
    }
  });
});
