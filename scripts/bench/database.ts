/**
 * The benchmark's database: generated once per data-set key (sizes, migrations, seeders and this
 * generator), kept, and copied fresh for every run, so a run never measures a database an earlier
 * run changed. SQLite: a cached file under BENCH_CACHE_DIR, copied into a temporary DATA_DIR.
 * PostgreSQL: a database `<name>_data`, loaded with multi-row inserts and VACUUM ANALYZEd, then
 * cloned as `<name>` (CREATE DATABASE … TEMPLATE) for the run.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { Kysely, SqliteDialect } from 'kysely';
import type { JWK } from 'jose';
import { openDatabase, type Db } from '../../server/db/database';
import type { Database } from '../../server/db/schema';
import { migrateToLatest } from '../../server/db/migrate';
import { ROOT, type BenchConfig } from './config';
import { generateDataset, type DatasetFacts, type Sink } from './dataset';
import { cpuSeconds } from './servers';

export interface PreparedDatabase {
  /** Environment for the portal: DATA_DIR or DATABASE_URL. */
  serverEnv: Record<string, string>;
  facts: DatasetFacts;
  /** The built-in provider's signing key, to sign bearer tokens the portal accepts. */
  signingKey: JWK;
  cacheKey: string;
  /** Seconds the generation took, or null when the cached data set was used. */
  generationSeconds: number | null;
  /** Whether the database is still working on the portal's queries (PostgreSQL; SQLite runs inside the portal). */
  busy(): Promise<boolean>;
  /**
   * CPU seconds the database's own processes used so far (PostgreSQL: the backends connected to the run's
   * database, from /proc); 0 on SQLite, whose work runs inside the portal and is in its CPU already.
   */
  cpuSeconds(): Promise<number | null>;
  /** Reads the run's database beside the portal (the people to sign tokens for, pending certificates, counters). */
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  /** Writes into the run's database beside the portal (the browsing person's sign-in account: browse.ts). */
  execute(sql: string, params?: unknown[]): Promise<void>;
  cleanup(): Promise<void>;
}

const FACTS = 'bench.facts';
const KEY = 'bench.key';

/** Everything that shapes the data: sizes, the schema, the demo seed and the generator. */
function datasetKey(config: BenchConfig): string {
  const files = [
    ...fs.readdirSync(path.join(ROOT, 'server/db/migrations')).map((f) => `server/db/migrations/${f}`),
    'server/db/migrate.ts', 'scripts/bench/dataset.ts',
    ...fs.readdirSync(path.join(ROOT, 'server/demo')).map((f) => `server/demo/${f}`),
  ].filter((f) => fs.existsSync(path.join(ROOT, f))).sort();
  const hash = createHash('sha256').update(JSON.stringify({ sizes: config.sizes, largeShare: config.largeShare, pemPool: config.pemPool }));
  for (const f of files) hash.update(f).update(fs.readFileSync(path.join(ROOT, f)));
  return hash.digest('hex').slice(0, 16);
}

function readSettings(rows: { name: string; value: string }[]): { facts: DatasetFacts; signingKey: JWK } {
  const value = (name: string) => rows.find((r) => r.name === name)?.value;
  const facts = JSON.parse(value(FACTS) ?? 'null') as DatasetFacts | null;
  const keys = JSON.parse(value('idp.keys') ?? 'null') as { keys: JWK[] } | null;
  if (!facts || !keys) throw new Error('The benchmark database lacks its facts or signing key: regenerate it (BENCH_REGENERATE=1).');
  return { facts, signingKey: keys.keys[0] };
}

async function generate(db: Db, sink: Sink, config: BenchConfig, log: (line: string) => void) {
  await migrateToLatest(db);
  return generateDataset(db, sink, config.sizes, config.largeShare, config.pemPool, log);
}

/**
 * The bench writes PostgreSQL's $1, $2…; better-sqlite3 takes SQLite's ?1, ?2… only as named values, so each $n (used
 * once, in order) becomes a `?` that takes its value by place.
 */
const sqliteText = (text: string) => text.replace(/\$\d+/g, '?');

async function prepareSqlite(config: BenchConfig, key: string, log: (line: string) => void): Promise<PreparedDatabase> {
  fs.mkdirSync(config.cacheDir, { recursive: true });
  const cached = path.join(config.cacheDir, `sqlite-${key}.db`);
  let generationSeconds: number | null = null;
  if (config.regenerate || !fs.existsSync(cached)) {
    const started = performance.now();
    const partial = `${cached}.partial`;
    fs.rmSync(partial, { force: true });
    const sqlite = new SQLite(partial);
    // Bulk loading: no sync, the rollback journal in memory. The portal sets its own pragmas when it opens the copy.
    sqlite.pragma('journal_mode = MEMORY');
    sqlite.pragma('synchronous = OFF');
    sqlite.pragma('cache_size = -262144');
    sqlite.pragma('foreign_keys = ON');
    const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
    const statements = new Map<string, SQLite.Statement>();
    const sink: Sink = {
      async insert(table, columns, rows) {
        const names = columns.map(([n]) => n);
        const sql = `insert into ${table} (${names.join(', ')}) values (${names.map(() => '?').join(', ')})`;
        let statement = statements.get(sql);
        if (!statement) statements.set(sql, (statement = sqlite.prepare(sql)));
        const run = statement;
        sqlite.transaction(() => {
          for (const row of rows) run.run(row);
        })();
      },
    };
    const facts = await generate(db, sink, config, log);
    sqlite.prepare('insert or replace into settings (name, value) values (?, ?), (?, ?)').run(FACTS, JSON.stringify(facts), KEY, key);
    sqlite.pragma('journal_mode = WAL');
    await db.destroy();
    // Other sets in the cache stay: the directory may be shared (BENCH_CACHE_DIR), and a 10× set (BENCH_GROWTH) lives beside the usual one.
    fs.renameSync(partial, cached);
    generationSeconds = (performance.now() - started) / 1000;
  }
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-bench-'));
  const file = path.join(dataDir, 'portal.db');
  fs.copyFileSync(cached, file);
  const reader = new SQLite(file, { readonly: true });
  const { facts, signingKey } = readSettings(reader.prepare('select name, value from settings').all() as { name: string; value: string }[]);
  return {
    serverEnv: { DATA_DIR: dataDir }, facts, signingKey, cacheKey: key, generationSeconds,
    busy: async () => false,
    cpuSeconds: async () => 0,
    // A read-only connection beside the portal's (WAL): it sees every committed write.
    query: async <T>(text: string, params: unknown[] = []) => reader.prepare(sqliteText(text)).all(...params) as T[],
    execute: async (text: string, params: unknown[] = []) => {
      const writer = new SQLite(file);
      try {
        writer.pragma('busy_timeout = 5000');
        writer.prepare(sqliteText(text)).run(...params);
      } finally {
        writer.close();
      }
    },
    cleanup: async () => {
      reader.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

async function preparePostgres(config: BenchConfig, key: string, log: (line: string) => void): Promise<PreparedDatabase> {
  const url = config.databaseUrl!;
  const name = decodeURIComponent(new URL(url).pathname.slice(1));
  // The run database is dropped and made anew: refuse any name that is not plainly a benchmark's.
  if (!/^[a-z0-9_]*bench[a-z0-9_]*$/i.test(name)) throw new Error(`BENCH_DATABASE_URL must name a database whose name contains "bench" (it is dropped and recreated), not ${JSON.stringify(name)}`);
  const dataName = `${name}_data`;
  const admin = new pg.Client({ connectionString: withDatabase(url, 'postgres') });
  await admin.connect();
  let generationSeconds: number | null = null;
  try {
    const exists = async (db: string) => (await admin.query('select 1 from pg_database where datname = $1', [db])).rowCount === 1;
    let reuse = false;
    if (!config.regenerate && (await exists(dataName))) {
      const client = new pg.Client({ connectionString: withDatabase(url, dataName) });
      await client.connect();
      try {
        const { rows } = await client.query('select value from settings where name = $1', [KEY]);
        reuse = rows[0]?.value === key;
      } catch {
        reuse = false;
      } finally {
        await client.end();
      }
    }
    if (!reuse) {
      const started = performance.now();
      await admin.query(`drop database if exists "${dataName}" with (force)`);
      await admin.query(`create database "${dataName}"`);
      const db = openDatabase({ databaseUrl: withDatabase(url, dataName) });
      const loader = new pg.Client({ connectionString: withDatabase(url, dataName) });
      await loader.connect();
      const sink: Sink = {
        async insert(table, columns, rows) {
          // One statement per batch: each column travels as one array parameter.
          const arrays = columns.map((_, i) => rows.map((r) => r[i]));
          const unnest = columns.map(([, type], i) => `$${i + 1}::${type === 'int' ? 'integer' : 'text'}[]`).join(', ');
          await loader.query(`insert into ${table} (${columns.map(([n]) => n).join(', ')}) select * from unnest(${unnest})`, arrays);
        },
      };
      const facts = await generate(db, sink, config, log);
      await db.destroy();
      log('  VACUUM ANALYZE');
      await loader.query('vacuum analyze');
      await loader.query('insert into settings (name, value) values ($1, $2), ($3, $4)', [FACTS, JSON.stringify(facts), KEY, key]);
      await loader.end();
      generationSeconds = (performance.now() - started) / 1000;
    }
    await admin.query(`drop database if exists "${name}" with (force)`);
    await admin.query(`create database "${name}" template "${dataName}"`);
  } finally {
    await admin.end();
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const { rows } = await client.query('select name, value from settings');
  await client.end();
  const { facts, signingKey } = readSettings(rows);
  const watcher = new pg.Pool({ connectionString: url, max: 2 });
  const busy = async () => {
    const { rows: active } = await watcher.query(
      "select count(*)::int as n from pg_stat_activity where datname = current_database() and state <> 'idle' and pid <> pg_backend_pid()",
    );
    return active[0].n > 0;
  };
  // The run database is left in place: the portal can be started on it to look around (`DATABASE_URL=… npm start`).
  const query = async <T>(text: string, params: unknown[] = []) => (await watcher.query(text, params)).rows as T[];
  // The portal's pool keeps its connections: the CPU of the backends serving it, summed, moves with its queries.
  // Each backend's CPU as last seen, those that have gone with it: a backend that closed between two readings (the
  // archive's child ends its connections when it exits) no longer takes its CPU out of the sum (growth read -576 ms).
  const seen = new Map<number, number>();
  const databaseCpu = async () => {
    const backends = await query<{ pid: number }>('select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()');
    let read = 0;
    for (const { pid } of backends) {
      const seconds = cpuSeconds(pid);
      if (seconds == null) continue; // ended since the query
      seen.set(pid, seconds);
      read++;
    }
    // No /proc (not Linux): nothing to read at all.
    return backends.length && !read ? null : [...seen.values()].reduce((a, b) => a + b, 0);
  };
  const execute = async (text: string, params: unknown[] = []) => void (await watcher.query(text, params));
  return { serverEnv: { DATABASE_URL: url }, facts, signingKey, cacheKey: key, generationSeconds, busy, cpuSeconds: databaseCpu, query, execute, cleanup: () => watcher.end() };
}

export async function prepareDatabase(config: BenchConfig, log: (line: string) => void): Promise<PreparedDatabase> {
  const key = datasetKey(config);
  return config.engine === 'postgres' ? preparePostgres(config, key, log) : prepareSqlite(config, key, log);
}
