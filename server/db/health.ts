/**
 * Whether the database answers, as the portal's own statements find out (docs/decisions.md
 * "Start-up and metrics"). A lost or frozen database is one outage: one warn line when the first
 * statement fails for want of it, one when a statement succeeds again, nothing per request or per
 * background run in between. Requests meanwhile answer 503 with Retry-After (http/error-handler.ts),
 * the notification jobs back off (modules/notifications/worker.ts), and the pool reconnects by
 * itself: no restart.
 */
import { describeError } from '../startup';

/**
 * `unreachable`: no connection, a connection lost, a server shutting down or frozen (our read
 * timeout). `busy`: the database answers but not in time (statement timeout, every pooled
 * connection in use for the whole connect timeout, SQLite's busy timeout).
 */
export type DatabaseFailure = 'unreachable' | 'busy';

/** Node's codes of a connection that could not be made or was lost. */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EHOSTDOWN', 'ENOTFOUND', 'EAI_AGAIN', 'EPIPE']);
/** PostgreSQL: class 08 (connection exception) and the server shutting down or starting. */
const UNREACHABLE_STATES = /^(08...|57P01|57P02|57P03)$/;
/** PostgreSQL: statement timeout or cancel, too many connections, a lock not available. */
const BUSY_STATES = new Set(['57014', '53300', '55P03']);
/** node-postgres's own words for a connection that failed, was lost or could not be made in time. */
const UNREACHABLE_MESSAGES = /^(Connection terminated|Client has encountered a connection error|Client was closed|timeout expired)/;
/** node-postgres's pool: no connection became free within the connect timeout. */
const POOL_EXHAUSTED = 'timeout exceeded when trying to connect';

/** The database did not answer a statement within its read timeout (db/pg-pool.ts); its connection is closed. */
export class DatabaseReadTimeout extends Error {
  readonly code = 'DATABASE_READ_TIMEOUT';
}

/** What kind of database failure `error` is, or undefined when it is none (a constraint, a bug). */
function databaseFailure(error: unknown, depth = 0): DatabaseFailure | undefined {
  if (!(error instanceof Error) || depth > 3) return undefined;
  if (error instanceof DatabaseReadTimeout) return 'unreachable';
  const { code: given } = error as { code?: unknown };
  const code = typeof given === 'string' ? given : '';
  if (NETWORK_CODES.has(code) || UNREACHABLE_STATES.test(code) || UNREACHABLE_MESSAGES.test(error.message)) return 'unreachable';
  if (BUSY_STATES.has(code) || code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED') || error.message === POOL_EXHAUSTED) return 'busy';
  // Node's AggregateError of a connection refused at every address of a name; an error's cause.
  for (const inner of [...((error as AggregateError).errors ?? []), error.cause]) {
    const failure = databaseFailure(inner, depth + 1);
    if (failure) return failure;
  }
  return undefined;
}

interface Logger {
  warn(object: object, message: string): void;
}

/** At most one line a minute about a busy database: under overload every request would say it. */
const BUSY_LINE_EVERY_MS = 60_000;

export class DatabaseHealth {
  /** Where the lines go: the app's logger once built (app.ts); before that, start-up reports (startup.ts). */
  log?: Logger;
  private downSince?: number;
  /** When a statement last succeeded (performance.now()). */
  private answeredAt = -Infinity;
  private busySince = -Infinity;
  private busyCount = 0;
  /** The failures the database reported (db/pg-pool.ts), each counted once, with what they were taken for. */
  private readonly seen = new WeakMap<object, DatabaseFailure>();

  /** Whether the last failure said the database is unreachable and nothing answered since. */
  get down(): boolean {
    return this.downSince !== undefined;
  }

  /**
   * A statement or connection failed: an outage begins, or the database is busy, or it was no
   * database failure. `startedAt` (performance.now()) is when the failed attempt began: one begun
   * before the last success is old news (a connection attempt that timed out as the database came
   * back), not a new outage. Every connection in use for the whole wait with no statement answered
   * meanwhile is a database that stopped answering (frozen), not one that is busy.
   */
  failed(error: unknown, startedAt = performance.now()): DatabaseFailure | undefined {
    const known = this.seen.get(error as object);
    if (known) return known;
    let failure = databaseFailure(error);
    if (!failure) return undefined;
    if (failure === 'busy' && (error as Error).message === POOL_EXHAUSTED && startedAt >= this.answeredAt) failure = 'unreachable';
    this.seen.set(error as object, failure);
    if (failure === 'unreachable' && this.downSince === undefined && startedAt >= this.answeredAt) {
      this.downSince = Date.now();
      this.log?.warn({ database: 'unreachable' },
        `database unreachable: ${describeError(error)}; requests answer 503 with Retry-After and background jobs wait until it answers again`);
    } else if (failure === 'busy' && this.downSince === undefined) {
      this.busyCount++;
      const now = Date.now();
      if (now - this.busySince >= BUSY_LINE_EVERY_MS) {
        this.log?.warn({ database: 'busy', failures: this.busyCount },
          `database too slow: ${describeError(error)}; ${this.busyCount === 1 ? 'a request answers' : `${this.busyCount} requests answered`} 503 with Retry-After (one such line a minute at most)`);
        this.busySince = now;
        this.busyCount = 0;
      }
    }
    return failure;
  }

  /**
   * What a failure that reached a request or a job is, if the database failed: one the database
   * reported (the error or its cause), or SQLite's busy timeout (its driver is synchronous: nothing
   * watches it). Another network error (a webhook's receiver, the identity provider) is none.
   */
  failureOf(error: unknown): DatabaseFailure | undefined {
    for (let inner = error, depth = 0; inner instanceof Error && depth < 4; inner = inner.cause, depth++) {
      const known = this.seen.get(inner);
      if (known) return known;
    }
    const code = (error as { code?: unknown } | undefined)?.code;
    return typeof code === 'string' && /^SQLITE_(BUSY|LOCKED)/.test(code) ? this.failed(error) : undefined;
  }

  /** A statement succeeded: an outage, if any, is over. */
  answered(): void {
    this.answeredAt = performance.now();
    if (this.downSince === undefined) return;
    const seconds = Math.max(1, Math.round((Date.now() - this.downSince) / 1000));
    this.downSince = undefined;
    this.log?.warn({ database: 'reachable', downSeconds: seconds }, `database reachable again after ${seconds} s`);
  }
}
