/**
 * SQLite's WAL checkpoints, and with them its flushes to disk, mostly on a thread of their own. better-sqlite3 runs
 * every statement on the event loop, so whatever SQLite does inside a commit every request waits for: by itself it
 * copies the WAL back into the database file in the commit that takes the WAL past 1,000 pages (under 20 writers one
 * commit in fifteen, 12 ms each on average and up to 28 ms: a certificate's insert writes dozens of pages with its
 * indexes and text index), and with `synchronous = FULL` it flushed the WAL in every commit (db/database.ts runs
 * NORMAL, which flushes at checkpoints only). Here a worker thread with a connection of its own checkpoints ten times
 * a second (PASSIVE: it waits for no reader and no writer), and the portal's connection only past 64 MB. Only a
 * checkpoint that reaches the WAL's end lets the next write start the WAL afresh: the thread's does whenever no write
 * lands while it runs; under writes that never pause, the connection's own does at the limit, copying only what the
 * thread has not. Should the thread die, the connection checkpoints every 1,000 pages again, as SQLite does alone.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type SQLite from 'better-sqlite3';

const EVERY_MS = 100;
/** Where the connection checkpoints itself after all (16,384 pages of 4 kB: 64 MB), and what the WAL file is cut back to. */
export const LIMIT_PAGES = 16_384;

/**
 * The thread's whole program (CommonJS, so it needs no file of its own in the bundle). It opens its connection for
 * each checkpoint only, under a flag the portal waits on before it closes its own: the portal's connection must be
 * the last, which checkpoints the whole WAL into the database file and removes it, so the file alone is the data.
 */
const CHECKPOINTER = `
const { workerData } = require('node:worker_threads');
const SQLite = require(workerData.driver);
const [STOP, BUSY] = [0, 1];
const flags = new Int32Array(workerData.flags);
setInterval(() => {
  Atomics.store(flags, BUSY, 1);
  try {
    if (Atomics.load(flags, STOP)) return;
    const db = new SQLite(workerData.file, { fileMustExist: true });
    try {
      db.pragma('busy_timeout = 5000');
      db.pragma('wal_checkpoint(PASSIVE)');
    } finally {
      db.close();
    }
  } finally {
    Atomics.store(flags, BUSY, 0);
    Atomics.notify(flags, BUSY);
  }
}, workerData.everyMs);
`;

export interface Checkpoints {
  thread: Worker;
  /** Ends the thread's checkpoints; called before the connection closes. */
  stop(): void;
}

/** Moves the checkpoints of `sqlite` (a connection to `file`) mostly to a thread. */
export function checkpointApart(sqlite: SQLite.Database, file: string): Checkpoints {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const flags = new Int32Array(new SharedArrayBuffer(8));
  const worker = new Worker(CHECKPOINTER, { eval: true, workerData: { driver, file, flags: flags.buffer, everyMs: EVERY_MS } });
  worker.unref();
  sqlite.pragma(`wal_autocheckpoint = ${LIMIT_PAGES}`);
  sqlite.pragma(`journal_size_limit = ${LIMIT_PAGES * 4096}`);
  let stopped = false;
  // An error ends the thread; its exit hands the checkpoints back.
  worker.on('error', () => {});
  worker.on('exit', () => {
    if (!stopped && sqlite.open) sqlite.pragma('wal_autocheckpoint = 1000');
  });
  return {
    thread: worker,
    stop() {
      stopped = true;
      Atomics.store(flags, 0, 1);
      // A checkpoint under way ends in milliseconds; the thread opens no connection after the flag.
      while (Atomics.load(flags, 1) === 1) Atomics.wait(flags, 1, 1, 100);
      void worker.terminate();
    },
  };
}
