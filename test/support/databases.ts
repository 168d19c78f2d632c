/**
 * Real databases for the API tests: SQLite always, PostgreSQL whenever one is reachable.
 * Under CI=true a missing PostgreSQL is a failure, never a silent skip.
 */
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { openDatabase, type Db } from '../../server/db/database';
import { migrateToLatest } from '../../server/db/migrate';

export type Dialect = 'sqlite' | 'postgres';

/** The server to make throw-away databases on; its database itself is never written. */
const POSTGRES_ADMIN_URL = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

async function postgresReachable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

let dialectsPromise: Promise<Dialect[]> | undefined;

export function testDialects(): Promise<Dialect[]> {
  dialectsPromise ??= postgresReachable().then((reachable) => {
    if (!reachable && process.env.CI === 'true') {
      throw new Error(`CI=true but PostgreSQL at ${POSTGRES_ADMIN_URL} is not reachable`);
    }
    return reachable ? ['sqlite', 'postgres'] : ['sqlite'];
  });
  return dialectsPromise;
}

export interface TestDatabase {
  db: Db;
  /** PostgreSQL: where a second connection pool (a second instance) reaches the same database. */
  url?: string;
  drop(): Promise<void>;
}

async function adminQuery(text: string) {
  const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

const urlOf = (name: string) => {
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
};

/** The migrations as they are now: a template is made once per set (another branch, an edited migration). */
function migrationsHash(): string {
  const folder = path.resolve(import.meta.dirname, '../../server/db');
  const hash = createHash('sha256');
  for (const file of ['migrate.ts', ...fs.readdirSync(path.join(folder, 'migrations')).sort().map((f) => `migrations/${f}`)]) {
    hash.update(file).update(fs.readFileSync(path.join(folder, file)));
  }
  return hash.digest('hex').slice(0, 12);
}

let templateName: Promise<string> | undefined;

/**
 * A migrated PostgreSQL database that test databases are copied from: copying is a fifth of the time of migrating
 * anew (the unit lane makes about a hundred). Made by the first file of a run that needs it, under a lock so that
 * parallel workers and runs make it once, and published by a rename only when complete; other sets' templates go.
 */
function migratedTemplate(): Promise<string> {
  templateName ??= (async () => {
    const name = `portal_template_${migrationsHash()}`;
    const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
    await client.connect();
    try {
      await client.query('select pg_advisory_lock(20261129)');
      const { rowCount } = await client.query('select 1 from pg_database where datname = $1', [name]);
      if (!rowCount) {
        const building = `${name}_building`;
        await client.query(`drop database if exists ${building} with (force)`);
        await client.query(`create database ${building}`);
        const db = openDatabase({ databaseUrl: urlOf(building) });
        await migrateToLatest(db);
        await db.destroy();
        await client.query(`alter database ${building} rename to ${name}`);
        const old = await client.query<{ datname: string }>("select datname from pg_database where datname like 'portal\\_template\\_%' and datname <> $1", [name]);
        for (const { datname } of old.rows) await client.query(`drop database if exists ${datname} with (force)`);
      }
    } finally {
      await client.query('select pg_advisory_unlock(20261129)').catch(() => {});
      await client.end();
    }
    return name;
  })();
  return templateName;
}

/** A fresh, migrated database of the dialect; `drop` removes it. */
export async function createTestDatabase(dialect: Dialect): Promise<TestDatabase> {
  if (dialect === 'sqlite') {
    const db = openDatabase({ sqliteFile: ':memory:' });
    await migrateToLatest(db);
    return { db, drop: () => db.destroy() };
  }
  const name = `portal_test_${randomBytes(6).toString('hex')}`;
  await adminQuery(`create database ${name} template ${await migratedTemplate()}`).catch(async (error: unknown) => {
    // A run of other migrations (another branch) replaced the template meanwhile: make ours again.
    if (!/does not exist/.test(String(error))) throw error;
    templateName = undefined;
    await adminQuery(`create database ${name} template ${await migratedTemplate()}`);
  });
  const db = openDatabase({ databaseUrl: urlOf(name) });
  return {
    db,
    url: urlOf(name),
    drop: async () => {
      await db.destroy();
      await adminQuery(`drop database if exists ${name} with (force)`);
    },
  };
}
