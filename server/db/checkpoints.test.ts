import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { checkpointApart, LIMIT_PAGES } from './checkpoints';
import { openDatabase } from './database';
import { sql } from 'kysely';

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) fs.rmSync(folder, { recursive: true, force: true });
});

function databaseFile(): string {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'checkpoints-'));
  folders.push(folder);
  return path.join(folder, 'portal.db');
}

const pagesOf = (file: string) => Math.floor(fs.statSync(file).size / 4096);

async function until(check: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('not in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** 2,000 rows of 3 kB: about 2,000 pages, twice SQLite's own checkpoint size and far below the connection's. */
const fill = (sqlite: SQLite.Database) => {
  sqlite.exec('create table t (id integer primary key, v text)');
  const insert = sqlite.prepare('insert into t (v) values (?)');
  for (let i = 0; i < 2000; i++) insert.run('x'.repeat(3000));
};

describe('checkpoints on a thread of their own', () => {
  it('copy the WAL into the database file while the connection itself does not', async () => {
    const file = databaseFile();
    const sqlite = new SQLite(file);
    sqlite.pragma('journal_mode = WAL');
    const checkpoints = checkpointApart(sqlite, file);
    expect(sqlite.pragma('wal_autocheckpoint', { simple: true })).toBe(LIMIT_PAGES);
    fill(sqlite);
    await until(() => pagesOf(file) >= 2000);
    checkpoints.stop();
    sqlite.close();
  });

  it('leave the database file whole when the portal closes it: no WAL beside it, every row in it', async () => {
    const file = databaseFile();
    const db = openDatabase({ sqliteFile: file });
    await sql`create table t (id integer primary key, v text)`.execute(db);
    for (let i = 0; i < 300; i++) await sql`insert into t (v) values (${'y'.repeat(3000)})`.execute(db);
    await db.destroy();
    expect(fs.existsSync(`${file}-wal`)).toBe(false);
    const copy = `${file}.copy`;
    fs.copyFileSync(file, copy);
    const reopened = new SQLite(copy, { readonly: true });
    expect(reopened.prepare('select count(*) as n from t').get()).toEqual({ n: 300 });
    reopened.close();
  });

  it('hand the checkpoints back to the connection when the thread dies', async () => {
    const file = databaseFile();
    const sqlite = new SQLite(file);
    sqlite.pragma('journal_mode = WAL');
    const checkpoints = checkpointApart(sqlite, file);
    await checkpoints.thread.terminate();
    await until(() => sqlite.pragma('wal_autocheckpoint', { simple: true }) === 1000);
    fill(sqlite);
    // SQLite's own checkpoints again, inside the commits.
    expect(pagesOf(file)).toBeGreaterThanOrEqual(1000);
    sqlite.close();
  });
});
