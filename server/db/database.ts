/**
 * The connection: SQLite (embedded default) or PostgreSQL when DATABASE_URL is set.
 * One Kysely type for both; the rest of the code never asks which one it has.
 */
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import {
  CompiledQuery, Kysely, PostgresDialect, SqliteDialect,
  type KyselyPlugin, type PluginTransformQueryArgs, type PluginTransformResultArgs, type QueryResult, type RootOperationNode,
  type Transaction, type UnknownRow,
} from 'kysely';
import type { Database } from './schema';
import { pgModule } from './pg';
import { DatabaseHealth } from './health';
import { watchedPool, type DatabaseTimeouts } from './pg-pool';
import { keepingStatements } from './sqlite-statements';
import { checkpointApart } from './checkpoints';

export type { DatabaseTimeouts };

export type Db = Kysely<Database>;
export type Tx = Transaction<Database>;
/** Repository functions take either the database or an open transaction. */
export type Queryable = Db | Tx;

export interface DatabaseOptions {
  databaseUrl?: string;
  /** SQLite file; ':memory:' for throw-away databases. */
  sqliteFile?: string;
  /** PostgreSQL connections at most (10). */
  poolSize?: number;
  /**
   * PostgreSQL's limits (config.ts, DATABASE_*_TIMEOUT_SECONDS): the portal passes them; scripts and tests
   * that load data in bulk open without.
   */
  timeouts?: DatabaseTimeouts;
  /** SQLite: false for a connection that only reads beside the portal's (the archive's child), which checkpoints. */
  checkpoints?: boolean;
}

/** The connection use of a database: for PostgreSQL its pool's, for SQLite its one connection. */
export interface PoolUse {
  total: number;
  idle: number;
  waiting: number;
}
const pools = new WeakMap<object, () => PoolUse>();

export function poolUse(db: Queryable): PoolUse {
  // SQLite: one connection, its statements synchronous: at any scrape it is idle (a busy one shows as event-loop delay).
  return pools.get(db)?.() ?? { total: 1, idle: 1, waiting: 0 };
}

const healths = new WeakMap<object, DatabaseHealth>();

/** Whether the database answers, as its statements find out (db/health.ts); one per opened database. */
export function databaseHealth(db: Queryable): DatabaseHealth {
  let health = healths.get(db);
  if (!health) healths.set(db, (health = new DatabaseHealth()));
  return health;
}

const timeoutsOf = new WeakMap<object, DatabaseTimeouts>();

/** The limits the database was opened with (a connection of its own, such as export-epoch.ts's LISTEN, keeps them too). */
export function databaseTimeouts(db: Queryable): DatabaseTimeouts | undefined {
  return timeoutsOf.get(db);
}

/** Where each open database lives, so a worker thread can open its own connection to it. */
const locations = new WeakMap<object, { databaseUrl?: string; sqliteFile?: string }>();

/** The database's location, or undefined for an in-memory SQLite database that no other connection can reach. */
export function databaseLocation(db: Queryable): { databaseUrl?: string; sqliteFile?: string } | undefined {
  const location = locations.get(db);
  return location && location.sqliteFile !== ':memory:' ? location : undefined;
}

/**
 * The rows of a fixed statement (`?` for its parameters), past the query builder: the versions
 * (db/versions.ts) are read on every request, and building and compiling that query through Kysely
 * cost several times more CPU than SQLite running it.
 */
type RowsReader = (text: string, params: readonly unknown[]) => Promise<Record<string, unknown>[]>;
const rowsReaders = new WeakMap<object, RowsReader>();

export function readRows(db: Queryable, text: string, params: readonly unknown[] = []): Promise<Record<string, unknown>[]> {
  const reader = rowsReaders.get(db);
  return reader ? reader(text, params) : db.executeQuery<Record<string, unknown>>(CompiledQuery.raw(text, [...params])).then((r) => r.rows);
}

/**
 * When this database last sent a statement that may write (performance.now(); -Infinity if never), in
 * its transactions too: db/export-epoch.ts reads the database instead of the epoch it holds for a
 * moment after a write of this instance.
 */
export function lastWriteAt(db: Queryable): number {
  return writeMarkers.get(db)?.lastWriteAt ?? -Infinity;
}
const writeMarkers = new WeakMap<object, WriteMarker>();

class WriteMarker implements KyselyPlugin {
  lastWriteAt = -Infinity;

  /** `onWrite`: SQLite's checkpoint thread, woken by writes (db/checkpoints.ts). */
  constructor(private readonly onWrite?: () => void) {}

  transformQuery({ node }: PluginTransformQueryArgs): RootOperationNode {
    if (mayWrite(node)) {
      this.lastWriteAt = performance.now();
      this.onWrite?.();
    }
    return node;
  }

  async transformResult({ result }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return result;
  }
}

function mayWrite(node: RootOperationNode): boolean {
  if (node.kind === 'SelectQueryNode') return false;
  // Raw SQL: a select, or a with … select (the alert gauges' reads), unless it names a writing statement anywhere.
  if (node.kind === 'RawNode') {
    const text = node.sqlFragments.join(' ');
    return !/^\s*(select|with)\b/i.test(text) || /\b(insert|update|delete|merge)\b/i.test(text);
  }
  return true;
}

export function openDatabase(options: DatabaseOptions): Db {
  const health = new DatabaseHealth();
  const { db, use, readRows: reader, marker } = connect(options, health);
  healths.set(db, health);
  if (options.timeouts) timeoutsOf.set(db, options.timeouts);
  writeMarkers.set(db, marker);
  if (use) pools.set(db, use);
  rowsReaders.set(db, reader);
  const file = options.sqliteFile ?? DEFAULT_SQLITE_FILE;
  locations.set(db, options.databaseUrl ? { databaseUrl: options.databaseUrl } : { sqliteFile: file === ':memory:' ? file : path.resolve(file) });
  return db;
}

const DEFAULT_SQLITE_FILE = './data/portal.db';

function connect({ databaseUrl, sqliteFile = DEFAULT_SQLITE_FILE, poolSize = 10, timeouts, checkpoints: apart = true }: DatabaseOptions, health: DatabaseHealth): { db: Db; use?: () => PoolUse; readRows: RowsReader; marker: WriteMarker } {
  if (databaseUrl) {
    // int8 (counts) as numbers: they stay far below 2^53 here.
    pgModule().types.setTypeParser(20, (v) => Number(v));
    const pool = watchedPool(databaseUrl, poolSize, timeouts, health);
    // A named statement: PostgreSQL parses and plans it once per connection.
    const names = new Map<string, { name: string; text: string }>();
    const readRows: RowsReader = async (text, values) => {
      let named = names.get(text);
      if (!named) {
        let n = 0;
        names.set(text, (named = { name: `rows_${names.size}`, text: text.replace(/\?/g, () => `$${++n}`) }));
      }
      return pool.rows(named, [...values]);
    };
    const marker = new WriteMarker();
    return { db: new Kysely<Database>({ dialect: new PostgresDialect({ pool: pool.dialectPool }), plugins: [marker] }), use: pool.use, readRows, marker };
  }
  if (sqliteFile !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(sqliteFile)), { recursive: true });
  const sqlite = new SQLite(sqliteFile);
  // WAL for concurrent readers. NORMAL: a commit is in the WAL when it returns, so a killed process loses none; the
  // WAL is flushed to disk by the checkpoints, a tenth of a second after writes on a thread of their own
  // (db/checkpoints.ts), so a power loss can take the last moments' commits (at most about a second), never the
  // file's consistency. FULL flushed inside every commit, on the event loop, with every request waiting
  // (docs/performance.md).
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  // A write of another process (a backup, the sqlite3 shell) is waited for this long; then SQLITE_BUSY, a 503 (db/health.ts).
  sqlite.pragma('busy_timeout = 5000');
  // 8 MB of SQLite's own page cache instead of better-sqlite3's 16 MB: the operating system caches the file
  // anyway and the answers read most are kept (http/kept-answers.ts), while the 16 MB filled up during a long run
  // and sat in the process's RSS. Not 4 MB: a list of the large organization walks 5 MB of its index, which
  // then came through the operating system page by page (its first page: 2.2 ms of SQLite, 0.8 ms with 8 MB).
  sqlite.pragma('cache_size = -8000');
  const checkpoints = apart && sqliteFile !== ':memory:' ? checkpointApart(sqlite, path.resolve(sqliteFile)) : undefined;
  const marker = new WriteMarker(checkpoints?.written);
  const statements = keepingStatements(sqlite, checkpoints?.stop);
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: statements }), plugins: [marker] });
  // While a transaction is open, through the driver: it holds the one connection for the whole
  // transaction, and a read between its statements would see what it has not committed. Otherwise the
  // kept statement at once: there is nothing uncommitted to see, and the driver's queue and promises were
  // most of the versions read's cost on every request.
  const readRows: RowsReader = async (text, params) =>
    sqlite.inTransaction
      ? (await db.executeQuery<Record<string, unknown>>(CompiledQuery.raw(text, [...params]))).rows
      : (statements.prepare(text).all(params) as Record<string, unknown>[]);
  return { db, readRows, marker };
}

export function isPostgres(db: Queryable): boolean {
  return db.getExecutor().adapter.constructor.name === 'PostgresAdapter';
}
