/**
 * What `npm run backup` and `npm run restore` share: where the SQLite database is, what makes a
 * file a portal database this code can run, and the PostgreSQL commands an operator runs instead.
 */
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { loadConfig, type Config } from '../server/config';
import { MIGRATION_NAMES } from '../server/db/migrate';

/** Kysely's table of the migrations a database has run (server/db/migrate.ts). */
const MIGRATION_TABLE = 'kysely_migration';

export function portalConfig(): Config {
  try {
    return loadConfig();
  } catch (error) {
    return fail((error as Error).message);
  }
}

/** The database file of DATA_DIR, as the server opens it (server/main.ts). */
export const databaseFileOf = (config: Config) => path.resolve(config.dataDir, 'portal.db');

export function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

/** Timestamps in file names: sortable, no colons (Windows), UTC. */
export const fileStamp = (date = new Date()) => date.toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');

export interface PortalDatabaseSummary {
  /** The last migration it ran. */
  version: string;
  /** Rows of the main tables, for the operator to compare. */
  counts: Record<string, number>;
}

const COUNTED = ['organizations', 'members', 'certificates', 'licenses', 'audit_records'];

/**
 * Checks that `file` is a sound portal database that this code can run (its migrations are all
 * known here; newer ones would come from a newer portal), or says why not.
 */
export function inspectPortalDatabase(file: string): PortalDatabaseSummary {
  if (!fs.existsSync(file)) throw new Error(`${file} does not exist`);
  let db: SQLite.Database;
  try {
    db = new SQLite(file, { readonly: true, fileMustExist: true });
  } catch (error) {
    throw new Error(`${file} cannot be opened as SQLite: ${(error as Error).message}`, { cause: error });
  }
  try {
    let integrity: unknown;
    try {
      integrity = db.pragma('integrity_check', { simple: true });
    } catch (error) {
      throw new Error(`${file} is not a readable SQLite database (${(error as Error).message})`, { cause: error });
    }
    if (integrity !== 'ok') throw new Error(`${file} is damaged (integrity_check: ${String(integrity)})`);
    const table = db.prepare("select 1 from sqlite_master where type = 'table' and name = ?").get(MIGRATION_TABLE);
    if (!table) throw new Error(`${file} is not a portal database (it has no ${MIGRATION_TABLE} table)`);
    const ran = (db.prepare(`select name from ${MIGRATION_TABLE} order by name`).all() as Array<{ name: string }>).map((row) => row.name);
    const unknown = ran.filter((name) => !MIGRATION_NAMES.includes(name));
    if (unknown.length > 0) throw new Error(`${file} comes from a newer portal (migrations this version does not know: ${unknown.join(', ')}); restore it with that version`);
    if (ran.length === 0) throw new Error(`${file} is not a portal database (no migration has run in it)`);
    const counts = Object.fromEntries(COUNTED.map((name) => [name, (db.prepare(`select count(*) as n from ${name}`).get() as { n: number }).n]));
    return { version: ran[ran.length - 1], counts };
  } finally {
    db.close();
  }
}

export const describeSummary = ({ version, counts }: PortalDatabaseSummary) =>
  `schema ${version}; ${Object.entries(counts).map(([name, n]) => `${n} ${name.replace('_', ' ')}`).join(', ')}`;

/** With DATABASE_URL the database is PostgreSQL's to copy: what to run instead (README "Backup and restore"). */
export function postgresAdvice(what: 'backup' | 'restore'): string {
  const lines = what === 'backup'
    ? [
      'DATABASE_URL is set: the portal keeps its data in PostgreSQL, which this command does not copy.',
      'Take a consistent backup while the portal runs (pg_dump reads one snapshot) with:',
      '  pg_dump --format=custom --file=backups/portal-$(date -u +%Y%m%dT%H%M%SZ).dump "$DATABASE_URL"',
    ]
    : [
      'DATABASE_URL is set: the portal keeps its data in PostgreSQL, which this command does not restore.',
      'Stop every instance, then restore into an empty database (or add --clean --if-exists to replace the objects) with:',
      '  pg_restore --no-owner --exit-on-error --dbname="$DATABASE_URL" backups/portal-<time>.dump',
      'and start the portal: it runs the migrations the backup lacks.',
    ];
  return lines.join('\n');
}
