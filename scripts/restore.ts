/**
 * `npm run restore -- <backup file> [--force]`: puts a backup of `npm run backup` back as DATA_DIR's
 * database. It checks the file first (a sound portal database whose migrations this code knows;
 * the portal runs the ones it lacks at start), refuses while a portal has the database open, keeps
 * the replaced database beside it as portal.db.replaced-<time>, and says what it did.
 *
 * A running portal is detected by SQLite's own locks: every open connection of a portal (WAL mode)
 * holds a shared lock on the file for as long as it is open, so an exclusive lock is refused while
 * one runs, and granted as soon as none does, even after a crash (the OS drops a dead process's locks).
 */
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { databaseFileOf, describeSummary, fail, fileStamp, inspectPortalDatabase, portalConfig, postgresAdvice } from './portal-database';

const SIDE_FILES = ['', '-wal', '-shm'];

/** Takes the database's exclusive lock, or answers false when a process has it open. Leaves one self-contained file. */
function closeIfUnused(file: string): boolean {
  const db = new SQLite(file, { fileMustExist: true, timeout: 0 });
  try {
    db.pragma('locking_mode = EXCLUSIVE');
    db.exec('BEGIN EXCLUSIVE');
    db.exec('COMMIT');
    // Fold the WAL into the file, so what is kept aside is whole in portal.db.replaced-<time> alone.
    db.pragma('wal_checkpoint(TRUNCATE)');
    return true;
  } catch (error) {
    if ((error as { code?: string }).code === 'SQLITE_BUSY') return false;
    throw error;
  } finally {
    db.close();
  }
}

function main() {
  const args = process.argv.slice(2);
  const force = args.includes('--force');
  const backup = args.find((arg) => arg !== '--force');
  const config = portalConfig();
  if (config.databaseUrl) fail(postgresAdvice('restore'));
  if (!backup) fail('Usage: npm run restore -- <backup file> [--force]   (DATA_DIR says where to put it)');

  let summary;
  try {
    summary = inspectPortalDatabase(path.resolve(backup));
  } catch (error) {
    fail(`Not restored: ${(error as Error).message}. Nothing was changed.`);
  }

  const target = databaseFileOf(config);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  let keptAside: string | undefined;
  if (fs.existsSync(target)) {
    if (!closeIfUnused(target)) {
      if (!force) fail(`Not restored: a portal has ${target} open. Stop it first (or, if you are sure none runs, add --force). Nothing was changed.`);
      console.warn(`--force: ${target} is open in another process; it keeps writing to the replaced copy until it is restarted.`);
    }
    keptAside = `${target}.replaced-${fileStamp()}`;
    // The WAL and shared-memory files go with the file they belong to: a WAL left beside the restored file would be replayed into it.
    for (const suffix of SIDE_FILES) {
      if (fs.existsSync(target + suffix)) fs.renameSync(target + suffix, keptAside + suffix);
    }
  }
  // Copied under a temporary name and renamed: the portal never finds half a file.
  const incoming = `${target}.restoring`;
  fs.copyFileSync(path.resolve(backup), incoming);
  fs.renameSync(incoming, target);
  console.log(`Restored ${path.resolve(backup)} to ${target}: ${describeSummary(summary)}.`);
  console.log(keptAside ? `The database it replaced is kept as ${keptAside}.` : 'There was no database to replace.');
  console.log('Start the portal: it runs any migration the backup lacks.');
}

main();
