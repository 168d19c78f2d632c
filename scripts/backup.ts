/**
 * `npm run backup [-- <folder or file>]`: a consistent copy of the SQLite database while the portal
 * runs, through SQLite's online backup API (better-sqlite3's `backup`). The copy reads one
 * snapshot: every change the portal acknowledged before it started is in it, and none half.
 * Default folder ./backups; a name ending in .db is taken as the file. PostgreSQL: see postgresAdvice.
 */
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { databaseFileOf, describeSummary, fail, fileStamp, inspectPortalDatabase, portalConfig, postgresAdvice } from './portal-database';

/** Pages per step: all of them, so the copy is one read of one snapshot. In steps, every write of the running portal would restart it. */
const ALL_PAGES = 0x7fffffff;

function targetFile(argument: string | undefined): string {
  const name = `portal-${fileStamp()}.db`;
  if (!argument) return path.resolve('backups', name);
  const resolved = path.resolve(argument);
  const isFolder = argument.endsWith('/') || (fs.existsSync(resolved) && fs.statSync(resolved).isDirectory()) || !/\.(db|sqlite3?)$/.test(argument);
  return isFolder ? path.join(resolved, name) : resolved;
}

async function main() {
  const config = portalConfig();
  if (config.databaseUrl) fail(postgresAdvice('backup'));
  const source = databaseFileOf(config);
  if (!fs.existsSync(source)) fail(`No database at ${source} (DATA_DIR=${config.dataDir}): nothing to back up.`);
  const target = targetFile(process.argv[2]);
  if (fs.existsSync(target)) fail(`${target} exists already: name another file.`);
  fs.mkdirSync(path.dirname(target), { recursive: true });

  // Written under a temporary name: a backup that stopped half-way never looks like one.
  const partial = `${target}.partial`;
  fs.rmSync(partial, { force: true });
  const started = Date.now();
  const db = new SQLite(source, { fileMustExist: true, timeout: 10_000 });
  // Said before the copy begins: every change acknowledged before this line is in the copy.
  console.log(`Backing up ${source}…`);
  try {
    await db.backup(partial, { progress: () => ALL_PAGES });
  } catch (error) {
    fs.rmSync(partial, { force: true });
    fail(`Backup of ${source} failed: ${(error as Error).message}`);
  } finally {
    db.close();
  }
  // One self-contained file: the copy keeps the source's WAL mode, which would want -wal and -shm files beside it.
  const copy = new SQLite(partial);
  copy.pragma('journal_mode = DELETE');
  copy.close();
  let summary;
  try {
    summary = inspectPortalDatabase(partial);
  } catch (error) {
    fs.rmSync(partial, { force: true });
    fail(`The copy of ${source} is not usable: ${(error as Error).message}`);
  }
  fs.renameSync(partial, target);
  const size = (fs.statSync(target).size / 1_048_576).toFixed(1);
  console.log(`Backed up ${source} to ${target} (${size} MB, ${Date.now() - started} ms): ${describeSummary(summary)}.`);
  const relative = path.relative(process.cwd(), target);
  console.log(`Restore it with: npm run restore -- ${relative.startsWith('..') ? target : relative}`);
}

await main();
