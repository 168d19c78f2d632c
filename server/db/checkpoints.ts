/**
 * SQLite's WAL checkpoints, and with them its flushes to disk, mostly on a thread of their own. better-sqlite3 runs
 * every statement on the event loop, so whatever SQLite does inside a commit every request waits for: by itself it
 * copies the WAL back into the database file in the commit that takes the WAL past 1,000 pages (under 20 writers one
 * commit in fifteen, 12 ms each on average and up to 28 ms: a certificate's insert writes dozens of pages with its
 * indexes and text index), and with `synchronous = FULL` it flushed the WAL in every commit (db/database.ts runs
 * NORMAL, which flushes at checkpoints only). Here a worker thread with a connection of its own checkpoints a tenth
 * of a second after writes, and at least every second (PASSIVE: it waits for no reader and no writer; asleep while
 * nothing is written), and the portal's connection only past 64 MB. Only a
 * checkpoint that reaches the WAL's end lets the next write start the WAL afresh: the thread's does whenever no write
 * lands while it runs; under writes that never pause, the connection's own does at the limit, copying only what the
 * thread has not. Should the thread die, the connection checkpoints every 1,000 pages again, as SQLite does alone.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type SQLite from 'better-sqlite3';

/** After a write, the wait for the writes around it; and the longest sleep without one (a commit it did not see). */
const EVERY_MS = 100;
const IDLE_MS = 1000;
/** Where the connection checkpoints itself after all (16,384 pages of 4 kB: 64 MB), and what the WAL file is cut back to. */
export const LIMIT_PAGES = 16_384;
/** The shared flags, by place: the portal closes (STOP), the thread has closed its connection (CLOSED), writes sent (a count). */
const FLAG = { STOP: 0, CLOSED: 1, WRITES: 2 } as const;

/**
 * The thread's whole program (CommonJS, so it needs no file of its own in the bundle): one connection, asleep until a
 * write statement is sent (WRITES, counted by `written`) or a second passes, then a tenth of a second for the writes
 * around it to commit, then a PASSIVE checkpoint. When the portal raises STOP it closes its connection and raises
 * CLOSED, which the portal waits for before it closes its own: the portal's connection must be the last, which
 * checkpoints the whole WAL into the database file and removes it, so the file alone is the data.
 */
const CHECKPOINTER = `
const { workerData } = require('node:worker_threads');
const SQLite = require(workerData.driver);
const [STOP, CLOSED, WRITES] = [${FLAG.STOP}, ${FLAG.CLOSED}, ${FLAG.WRITES}];
const flags = new Int32Array(workerData.flags);
/** Until flags[index] is no longer value, or ms pass: the timer keeps the thread alive (a waitAsync alone does not). */
const until = (index, value, ms) => new Promise((resolve) => {
  const timer = setTimeout(resolve, ms);
  const wait = Atomics.waitAsync(flags, index, value, ms);
  if (!wait.async) { clearTimeout(timer); resolve(); }
  else wait.value.then(() => { clearTimeout(timer); resolve(); });
});
let db;
(async () => {
  try {
    if (Atomics.load(flags, STOP)) return;
    db = new SQLite(workerData.file, { fileMustExist: true });
    let seen = Atomics.load(flags, WRITES);
    for (;;) {
      await until(WRITES, seen, workerData.idleMs);
      if (Atomics.load(flags, STOP)) break;
      await until(STOP, 0, workerData.everyMs);
      if (Atomics.load(flags, STOP)) break;
      seen = Atomics.load(flags, WRITES);
      db.pragma('wal_checkpoint(PASSIVE)');
    }
  } finally {
    db?.close();
    Atomics.store(flags, CLOSED, 1);
    Atomics.notify(flags, CLOSED);
  }
})();
`;

export interface Checkpoints {
  thread: Worker;
  /** Tells the thread a write statement is on its way (db/database.ts's WriteMarker). */
  written(): void;
  /** Ends the thread's checkpoints; called before the connection closes. */
  stop(): void;
}

/** Moves the checkpoints of `sqlite` (a connection to `file`) mostly to a thread. */
export function checkpointApart(sqlite: SQLite.Database, file: string): Checkpoints {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const flags = new Int32Array(new SharedArrayBuffer(4 * Object.keys(FLAG).length));
  const workerData = { driver, file, flags: flags.buffer, everyMs: EVERY_MS, idleMs: IDLE_MS };
  const worker = new Worker(CHECKPOINTER, { eval: true, workerData });
  worker.unref();
  sqlite.pragma(`wal_autocheckpoint = ${LIMIT_PAGES}`);
  sqlite.pragma(`journal_size_limit = ${LIMIT_PAGES * 4096}`);
  let stopped = false;
  let exited = false;
  // An error ends the thread; its exit hands the checkpoints back.
  worker.on('error', () => {});
  worker.on('exit', () => {
    exited = true;
    if (!stopped && sqlite.open) sqlite.pragma('wal_autocheckpoint = 1000');
  });
  const written = () => {
    Atomics.add(flags, FLAG.WRITES, 1);
    Atomics.notify(flags, FLAG.WRITES);
  };
  return {
    thread: worker,
    written,
    stop() {
      stopped = true;
      Atomics.store(flags, FLAG.STOP, 1);
      written();
      Atomics.notify(flags, FLAG.STOP);
      // A checkpoint under way ends in milliseconds; a thread that died has closed its connection with it.
      const end = Date.now() + 2000;
      while (!exited && Atomics.load(flags, FLAG.CLOSED) === 0 && Date.now() < end) Atomics.wait(flags, FLAG.CLOSED, 0, 50);
      void worker.terminate();
    },
  };
}
