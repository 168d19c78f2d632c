/**
 * The PostgreSQL pool with limits (issue 31 item 3; docs/decisions.md "Start-up and metrics"): a
 * connection is made within the connect timeout, a statement ends within the statement timeout
 * (the server cancels it), a transaction left idle is ended by the server, and a server that
 * answers nothing at all (frozen, or a network path that drops packets) is given up on by our own
 * read timer, which closes that connection so that nothing queues behind it. Every failure and
 * every answer is told to the database's health (db/health.ts): one line per outage.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type pg from 'pg';
import type { PostgresPool } from 'kysely';
import { pgModule } from './pg';
import { DatabaseReadTimeout, type DatabaseHealth } from './health';

export interface DatabaseTimeouts {
  /** Opening a connection, or waiting for one of the pool to come free; 0: no limit. */
  connectMs: number;
  /** One statement (PostgreSQL's statement_timeout); 0: no limit. */
  statementMs: number;
  /** A transaction left idle between statements (idle_in_transaction_session_timeout); 0: no limit. */
  idleInTransactionMs: number;
}

/**
 * A frozen server cancels nothing: the portal gives up this long after the server should have
 * ended the statement, so a live server's own cancellation (a clean error, the connection kept)
 * always comes first.
 */
const READ_MARGIN_MS = 1_000;

const unlimited = new AsyncLocalStorage<true>();

/**
 * Runs `work` on connections of their own without statement, read or idle-transaction limits:
 * migrations (an index on a large table) and the wait for another instance's migration lock take
 * as long as they take. The connect timeout still holds.
 */
export function withoutStatementLimits<T>(work: () => Promise<T>): Promise<T> {
  return unlimited.run(true, work);
}

export interface WatchedPool {
  /** For Kysely's PostgresDialect. */
  dialectPool: PostgresPool;
  /** The rows of a named statement (db/database.ts readRows), through the same limits. */
  rows(statement: { name: string; text: string }, values: unknown[]): Promise<Record<string, unknown>[]>;
  use(): { total: number; idle: number; waiting: number };
}

type Query = (...args: unknown[]) => unknown;

export function watchedPool(url: string, max: number, timeouts: DatabaseTimeouts | undefined, health: DatabaseHealth): WatchedPool {
  const pg = pgModule();
  // keepAlive: a connection whose network path is gone without a word is noticed and replaced.
  // jit=off: PostgreSQL compiles a statement it estimates costly with LLVM, and its estimates of the lists' scalar
  // subqueries (a license's successor, db/status-sql.ts) are per row: the admin overview's license counts spent 590
  // of their 725 ms compiling, for 35 ms of work (docs/performance.md). No statement of the portal runs long enough
  // to win it back. A DATABASE_URL's own `options` still decide.
  const base = { connectionString: url, keepAlive: true, connectionTimeoutMillis: timeouts?.connectMs || undefined, options: '-c jit=off' };
  const bounded = new pg.Pool({
    ...base,
    max,
    statement_timeout: timeouts?.statementMs || undefined,
    idle_in_transaction_session_timeout: timeouts?.idleInTransactionMs || undefined,
  });
  const readTimeoutMs = timeouts?.statementMs ? timeouts.statementMs + READ_MARGIN_MS : 0;
  let long: pg.Pool | undefined;
  const longPool = () => (long ??= listenedTo(new pg.Pool({ ...base, max: 3, idleTimeoutMillis: 1_000 })));

  function listenedTo(pool: pg.Pool): pg.Pool {
    // Without a listener, an idle connection that the server closes is an uncaught error that ends the
    // process; the pool drops that connection and opens a new one when next needed.
    pool.on('error', (error) => health.failed(error));
    // The pool listens for errors of idle connections only: one lost while checked out (a statement under
    // way when the server went away) would end the process. Its statement fails with the error.
    pool.on('connect', (client) => client.on('error', () => undefined));
    return pool;
  }
  listenedTo(bounded);

  const watched = new WeakSet<pg.PoolClient>();
  /** Tells health of each statement's outcome and, with a limit, closes a connection whose server stays silent. */
  function watch(client: pg.PoolClient, limitMs: number): void {
    const query = client.query.bind(client) as Query;
    (client as unknown as { query: Query }).query = (...args) => {
      const started = performance.now();
      const result = query(...args);
      if (!(result instanceof Promise)) return result;
      const timer = limitMs
        ? setTimeout(() => {
            const error = new DatabaseReadTimeout(`the database did not answer within ${limitMs / 1000} s`);
            (client as unknown as { connection: { stream: { destroy(error: Error): void } } }).connection.stream.destroy(error);
          }, limitMs)
        : undefined;
      return result.then(
        (value) => {
          clearTimeout(timer);
          health.answered();
          return value;
        },
        (error: unknown) => {
          clearTimeout(timer);
          health.failed(error, started);
          throw error;
        },
      );
    };
  }

  async function connect(): Promise<pg.PoolClient> {
    const isLong = unlimited.getStore() === true;
    const started = performance.now();
    let client: pg.PoolClient;
    try {
      client = await (isLong ? longPool() : bounded).connect();
    } catch (error) {
      health.failed(error, started);
      throw error;
    }
    if (!watched.has(client)) {
      watched.add(client);
      watch(client, isLong ? 0 : readTimeoutMs);
    }
    return client;
  }

  return {
    dialectPool: {
      connect,
      end: async () => {
        await Promise.all([bounded.end(), long?.end()]);
      },
      options: bounded.options,
    },
    async rows(statement, values) {
      const client = await connect();
      try {
        return (await client.query({ ...statement, values })).rows;
      } finally {
        client.release();
      }
    },
    use: () => ({ total: bounded.totalCount, idle: bounded.idleCount, waiting: bounded.waitingCount }),
  };
}
