/**
 * The export epoch as the gateways' polls read it (db/export-epoch.ts): on PostgreSQL from a
 * listening connection, yet a change is never missed: another instance's write arrives by NOTIFY,
 * this instance's own write is read from the database at once, and a lost listener falls back to
 * reading the database until it is back.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { openDatabase, type Db, type Queryable } from './database';
import type { Versions } from './versions';
import { readSignIn } from '../auth/sign-in';
import { migrateToLatest } from './migrate';
import { readEpoch, readExportEpoch, stopExportEpochWatch } from './export-epoch';
import { createTestDatabase, testDialects, type TestDatabase } from '../../test/support/databases';

const dialects = await testDialects();

/** Polls until `check` holds or `ms` pass; the listener is asynchronous by nature. */
async function eventually(check: () => Promise<boolean>, ms = 5_000): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 20));
  }
  return check();
}

/** A write that moves the export epoch: a new resource row. */
async function moveEpoch(db: Queryable, id: string) {
  await db.insertInto('resources').values({
    resource_id: id, ordinal: Math.floor(Math.random() * 1e9), resource_name: id, path_pattern: `/${id}/**`,
    location: `/srv/${id}`, resource_type: 'STATIC_CONTENT', resource_access: 'PUBLIC', description: null,
  }).execute();
}

describe.each(dialects)('export epoch on %s', (dialect) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
  });
  afterAll(async () => {
    await stopExportEpochWatch(database.db);
    await database.drop();
  });

  it('gives the stored epoch, and the new one right after a write through the same database', async () => {
    expect(await readExportEpoch(database.db)).toBe(await readEpoch(database.db, 'export_epoch'));
    const before = await readExportEpoch(database.db);
    await moveEpoch(database.db, 'own-write');
    expect(await readExportEpoch(database.db)).toBeGreaterThan(before);
  });

  it('never reads what a transaction in progress has not committed', async () => {
    const before = await readEpoch(database.db, 'export_epoch');
    const versionsBefore = (await readSignIn(database.db, '', new Date(), [])).versions;
    let read: Promise<{ versions: Versions; exported: number }> | undefined;
    await database.db.transaction().execute(async (tx) => {
      await moveEpoch(tx, 'rolled-back');
      // As the triggers of the organizations do (migration 0022): the sign-in's one statement reads it.
      await sql`update organization_tree set epoch = epoch + 1 where id = 1`.execute(tx);
      // Asked while the transaction holds its uncommitted row: answered after it ended.
      read = Promise.all([readSignIn(database.db, '', new Date(), []), readExportEpoch(database.db)]).then(([{ versions }, exported]) => ({ versions, exported }));
      await new Promise((r) => setTimeout(r, 50));
      throw new Error('roll back');
    }).catch((error: Error) => expect(error.message).toBe('roll back'));
    expect(await read!).toEqual({ versions: versionsBefore, exported: before });
    expect(await readExportEpoch(database.db)).toBe(before);
  });
});

describe('export epoch of SQLite written by another process', () => {
  it('is seen within a second', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'export-epoch-'));
    const file = path.join(dir, 'portal.db');
    const portal = openDatabase({ sqliteFile: file });
    const shell = openDatabase({ sqliteFile: file });
    try {
      await migrateToLatest(portal);
      const before = await readExportEpoch(portal);
      await moveEpoch(shell, 'from-the-shell');
      const started = Date.now();
      expect(await eventually(async () => (await readExportEpoch(portal)) > before, 3_000)).toBe(true);
      expect(Date.now() - started).toBeLessThan(1_500);
    } finally {
      await portal.destroy();
      await shell.destroy();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe.runIf(dialects.includes('postgres'))('export epoch of two instances on one PostgreSQL', () => {
  let database: TestDatabase;
  let other: Db;
  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    other = openDatabase({ databaseUrl: database.url });
  });
  afterAll(async () => {
    await stopExportEpochWatch(database.db);
    await other.destroy();
    await database.drop();
  });

  const listeners = async () =>
    Number((await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity where datname = current_database() and query = 'LISTEN export_epoch'`.execute(other)).rows[0].n);

  it('learns of another instance\'s write by notification, without reading the database', async () => {
    await readExportEpoch(database.db);
    expect(await eventually(async () => (await listeners()) === 1)).toBe(true);
    // Writes of this instance are read from the database for a moment: wait that moment out.
    await new Promise((r) => setTimeout(r, 2_100));
    const before = await readExportEpoch(database.db);
    await moveEpoch(other, 'elsewhere');
    const stored = await readEpoch(other, 'export_epoch');
    expect(stored).toBeGreaterThan(before);
    expect(await eventually(async () => (await readExportEpoch(database.db)) === stored)).toBe(true);
    // The number comes from memory: a change of the row that notifies nobody is not seen.
    await sql`update export_epoch set epoch = epoch + 100 where id = 1`.execute(other);
    expect(await readExportEpoch(database.db)).toBe(stored);
    await sql`update export_epoch set epoch = epoch - 100 where id = 1`.execute(other);
  });

  it('reads the database while its listener is lost, and listens again', async () => {
    await sql`select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and query = 'LISTEN export_epoch'`.execute(other);
    await moveEpoch(other, 'while-lost');
    // No notification can arrive now; the answer is still the stored number.
    const stored = await readEpoch(other, 'export_epoch');
    expect(await eventually(async () => (await readExportEpoch(database.db)) === stored, 500)).toBe(true);
    expect(await eventually(async () => (await listeners()) === 1, 10_000)).toBe(true);
    await new Promise((r) => setTimeout(r, 2_100));
    await moveEpoch(other, 'after-reconnect');
    const next = await readEpoch(other, 'export_epoch');
    expect(await eventually(async () => (await readExportEpoch(database.db)) === next)).toBe(true);
  });
});
