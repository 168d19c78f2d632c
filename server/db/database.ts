/**
 * The connection: SQLite (embedded default) or PostgreSQL when DATABASE_URL is set.
 * One Kysely type for both; the rest of the code never asks which one it has.
 */
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { Kysely, PostgresDialect, SqliteDialect, type SqliteDatabase, type Transaction } from 'kysely';
import type { Database } from './schema';

export type Db = Kysely<Database>;
export type Tx = Transaction<Database>;
/** Repository functions take either the database or an open transaction. */
export type Queryable = Db | Tx;

export interface DatabaseOptions {
  databaseUrl?: string;
  /** SQLite file; ':memory:' for throw-away databases. */
  sqliteFile?: string;
  /** Told of errors on idle PostgreSQL connections (a restart, a dropped socket); the pool replaces them. */
  onConnectionError?: (error: Error) => void;
  /** PostgreSQL connections at most (10). */
  poolSize?: number;
}

/** The connection use of a database: for PostgreSQL its pool's, for SQLite its one connection. */
export interface PoolUse {
  total: number;
  idle: number;
  waiting: number;
}
const pools = new WeakMap<object, () => PoolUse>();

export function poolUse(db: Queryable): PoolUse {
  return pools.get(db)?.() ?? { total: 1, idle: 0, waiting: 0 };
}

/** Where each open database lives, so a worker thread can open its own connection to it. */
const locations = new WeakMap<object, { databaseUrl?: string; sqliteFile?: string }>();

/** The database's location, or undefined for an in-memory SQLite database that no other connection can reach. */
export function databaseLocation(db: Queryable): { databaseUrl?: string; sqliteFile?: string } | undefined {
  const location = locations.get(db);
  return location && location.sqliteFile !== ':memory:' ? location : undefined;
}

export function openDatabase(options: DatabaseOptions): Db {
  const { db, use } = connect(options);
  if (use) pools.set(db, use);
  const file = options.sqliteFile ?? DEFAULT_SQLITE_FILE;
  locations.set(db, options.databaseUrl ? { databaseUrl: options.databaseUrl } : { sqliteFile: file === ':memory:' ? file : path.resolve(file) });
  return db;
}

const DEFAULT_SQLITE_FILE = './data/portal.db';

function connect({ databaseUrl, sqliteFile = DEFAULT_SQLITE_FILE, onConnectionError, poolSize = 10 }: DatabaseOptions): { db: Db; use?: () => PoolUse } {
  if (databaseUrl) {
    // int8 (counts) as numbers: they stay far below 2^53 here.
    pg.types.setTypeParser(20, (v) => Number(v));
    const pool = new pg.Pool({ connectionString: databaseUrl, max: poolSize });
    // Without a listener, an idle connection that the server closes is an uncaught error that
    // ends the process; the pool drops that connection and opens a new one when next needed.
    pool.on('error', (error) => onConnectionError?.(error));
    const use = () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount });
    return { db: new Kysely<Database>({ dialect: new PostgresDialect({ pool }) }), use };
  }
  if (sqliteFile !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(sqliteFile)), { recursive: true });
  const sqlite = new SQLite(sqliteFile);
  // WAL for concurrent readers, FULL sync so a killed process loses no committed change.
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  return { db: new Kysely<Database>({ dialect: new SqliteDialect({ database: keepingStatements(sqlite) }) }) };
}

/**
 * better-sqlite3 with its prepared statements kept by SQL text: Kysely prepares each query anew, and
 * compiling the SQL was about a tenth of a list request's CPU under load. Statements run one at a
 * time on this connection (the driver is synchronous and nothing here streams), so one kept
 * statement per text serves every caller. Bounded without bookkeeping: when full, start again.
 */
function keepingStatements(sqlite: SQLite.Database): SqliteDatabase {
  const statements = new Map<string, SQLite.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(text) {
      let statement = statements.get(text);
      if (!statement) {
        if (statements.size >= 2_000) statements.clear();
        statements.set(text, (statement = sqlite.prepare(text)));
      }
      return statement;
    },
  };
}

export function isPostgres(db: Queryable): boolean {
  return db.getExecutor().adapter.constructor.name === 'PostgresAdapter';
}
