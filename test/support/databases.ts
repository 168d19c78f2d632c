/**
 * Real databases for the API tests: SQLite always, PostgreSQL whenever one is reachable.
 * Under CI=true a missing PostgreSQL is a failure, never a silent skip.
 */
import { randomBytes } from 'node:crypto';
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

/** A fresh, migrated database of the dialect; `drop` removes it. */
export async function createTestDatabase(dialect: Dialect): Promise<TestDatabase> {
  if (dialect === 'sqlite') {
    const db = openDatabase({ sqliteFile: ':memory:' });
    await migrateToLatest(db);
    return { db, drop: () => db.destroy() };
  }
  const name = `portal_test_${randomBytes(6).toString('hex')}`;
  await adminQuery(`create database ${name}`);
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  const db = openDatabase({ databaseUrl: url.toString() });
  await migrateToLatest(db);
  return {
    db,
    url: url.toString(),
    drop: async () => {
      await db.destroy();
      await adminQuery(`drop database if exists ${name} with (force)`);
    },
  };
}
