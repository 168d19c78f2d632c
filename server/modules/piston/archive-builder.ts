/**
 * Who builds the certificate archive for a database: a child process with its own connection
 * (archive-worker.ts), so the event loop keeps answering during a rebuild and the memory a build
 * takes leaves with the process when it exits, after it has been idle a while (IDLE_MS); or, for an
 * in-memory SQLite database that no second connection can open (tests), the process itself.
 *
 * The child writes each archive and its kept state (the pieces as spans of that archive) to files
 * in a folder of this builder's own, and the portal reads the archive from there on libuv's thread
 * pool (archive-worker.ts says why not through the channel). The last build's two files stay: a
 * new child starts from them, so a rebuild after an idle exit compresses only what changed, as one
 * by a child that never left.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { databaseLocation, type Queryable } from '../../db/database';
import { CertsArchive, type ArchiveFile, type Export } from './archive';
import type { BuildFiles, BuildReply, BuildRequest } from './archive-worker';

export interface Built {
  archive: Export;
  until: number;
  /** Only when asked for: the statistics name the archive's files. */
  files?: ArchiveFile[];
  /** Milliseconds of the build's steps, how many organizations it read again and how many pieces it compressed. */
  timing?: Record<string, number>;
}

interface Builder {
  build(now: Date, withFiles: boolean): Promise<Built>;
  close(): Promise<void>;
  /** The child's process id while one runs (tests). */
  pid(): number | undefined;
  /** Where the builds' files are, once there was one (tests). */
  folder(): string | undefined;
}

/** How long a child without work stays (tests shorten it). */
let idleMs = 30_000;

export function setArchiveBuilderIdle(ms: number): void {
  idleMs = ms;
}

const here = fileURLToPath(import.meta.url);
// The child is this folder's archive-worker, compiled like this file (.ts under tsx, .mjs in the bundle).
const WORKER_FILE = path.join(path.dirname(here), `archive-worker${path.extname(here)}`);

/**
 * Node's options for the child: the portal's source maps and young generation (scripts/build-server.mjs; with Node's
 * own, up to 2 × 64 MB, a rebuild's child reached 450 MB, 335 MB with the portal's), not its heap's cap (a first build
 * holds a chunk of organizations' PEMs: 200 MB at ten times the usual size). Under tsx (development, tests) its
 * loader, which turns TypeScript into JavaScript.
 */
function workerExecArgv(): string[] {
  if (!WORKER_FILE.endsWith('.ts')) return process.execArgv.filter((a) => a === '--enable-source-maps' || a.startsWith('--max-semi-space-size='));
  return ['--import', pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href];
}

function processBuilder(location: { databaseUrl?: string; sqliteFile?: string }): Builder {
  let child: ChildProcess | undefined;
  /** The builds' files: made at the first build, removed when the builder closes. */
  let folder: string | undefined;
  /** The last build whose archive was read: a new child goes on from its files. */
  let last: { id: number; files: BuildFiles } | undefined;
  let seeded = false;
  let idle: NodeJS.Timeout | undefined;
  let nextId = 0;
  const waiting = new Map<number, { files: BuildFiles; resolve: (b: Built) => void; reject: (e: Error) => void }>();
  /** Children not yet gone, stopping ones included: closing waits for them (a PostgreSQL database is dropped only without connections). */
  const exits = new Map<ChildProcess, Promise<void>>();

  const remove = (files: BuildFiles) => Promise.all([fs.rm(files.archive, { force: true }), fs.rm(files.state, { force: true })]);
  const fail = (c: ChildProcess, error: Error) => {
    if (child !== c) return;
    child = undefined; // the next build starts a new one
    if (c.exitCode === null && c.signalCode === null) c.kill();
    clearTimeout(idle);
    for (const w of waiting.values()) w.reject(error);
    waiting.clear();
  };
  const stop = (c: ChildProcess) => {
    if (child === c) child = undefined;
    if (c.connected) c.disconnect(); // the child closes its connection and exits
  };
  /** The archive of a build the child finished, read from its file on the thread pool. */
  const take = async (id: number, files: BuildFiles, reply: Exclude<BuildReply, { error: string }>): Promise<Built> => {
    const body = await fs.readFile(files.archive);
    if (body.length !== reply.length) throw new Error('Certificate archive: the builder process wrote another archive');
    // Builds are read in order of their ids: only the newest one's files stay, for the next child.
    if (!last || last.id < id) {
      const older = last;
      last = { id, files };
      if (older) await remove(older.files);
    } else {
      await remove(files);
    }
    return { archive: { body, etag: reply.etag }, until: reply.until ?? Infinity, files: reply.files, timing: reply.timing };
  };
  const start = () => {
    const c = fork(WORKER_FILE, [], { execArgv: workerExecArgv(), serialization: 'advanced', stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    // Neither the child nor its channel keeps a closing process alive.
    c.unref();
    c.channel?.unref();
    seeded = false;
    exits.set(c, new Promise<void>((resolve) => c.once('exit', () => resolve())));
    void exits.get(c)!.then(() => exits.delete(c));
    c.on('message', (reply: BuildReply) => {
      if (child !== c) return; // failed or stopped: what it says no longer counts
      const call = waiting.get(reply.id);
      waiting.delete(reply.id);
      if (waiting.size === 0 && child === c) {
        clearTimeout(idle);
        idle = setTimeout(() => stop(c), idleMs).unref();
      }
      if (!call) return;
      if (reply.error !== undefined) return call.reject(new Error(`Certificate archive: ${reply.error}`));
      take(reply.id, call.files, reply).then(call.resolve, call.reject);
    });
    c.on('error', (error) => fail(c, error));
    c.on('exit', (code, signal) => fail(c, new Error(`Certificate archive: the builder process stopped (${signal ?? code})`)));
    return c;
  };
  return {
    build(now, withFiles) {
      try {
        // Once per builder, a few microseconds: the builds' files go where no other process writes.
        folder ??= mkdtempSync(path.join(os.tmpdir(), 'portal-archive-'));
      } catch (error) {
        return Promise.reject(error as Error);
      }
      clearTimeout(idle);
      child ??= start();
      const id = nextId++;
      const files = { archive: path.join(folder, `${id}.tgz`), state: path.join(folder, `${id}.state`) };
      const reply = new Promise<Built>((resolve, reject) => waiting.set(id, { files, resolve, reject }));
      const request: BuildRequest = { id, now: now.getTime(), withFiles, location, out: files };
      if (!seeded && last) request.seed = last.files;
      seeded = true;
      const c = child;
      c.send(request, (error) => error && fail(c, error));
      return reply;
    },
    async close() {
      clearTimeout(idle);
      const c = child;
      if (c) fail(c, new Error('Certificate archive: the app is closing'));
      // Waited for, a child keeps the process alive again: unreferenced, a shutdown's event loop ran empty here and the
      // process ended before the folder was removed and the database closed.
      for (const stopping of exits.keys()) stopping.ref();
      await Promise.all(exits.values());
      if (folder) await fs.rm(folder, { recursive: true, force: true });
      folder = undefined;
      last = undefined;
    },
    pid: () => child?.pid,
    folder: () => folder,
  };
}

function inProcessBuilder(db: Queryable): Builder {
  const archive = new CertsArchive(db);
  let queue: Promise<unknown> = Promise.resolve();
  return {
    build(now, withFiles) {
      const built = queue.then(() => archive.build(now, withFiles));
      queue = built.catch(() => {});
      return built;
    },
    close: async () => {},
    pid: () => undefined,
    folder: () => undefined,
  };
}

const builders = new WeakMap<object, Builder>();

function builderOf(db: Queryable): Builder {
  let builder = builders.get(db);
  if (!builder) {
    const location = databaseLocation(db);
    builders.set(db, (builder = location ? processBuilder(location) : inProcessBuilder(db)));
  }
  return builder;
}

/** The archive of the trusted certificates at `now`, built by this database's builder. */
export function buildCertsArchive(db: Queryable, now: Date, withFiles = false): Promise<Built> {
  return builderOf(db).build(now, withFiles);
}

/** The process id of this database's archive builder while one runs (tests). */
export function archiveBuilderPid(db: Queryable): number | undefined {
  return builders.get(db)?.pid();
}

/** The folder of this database's archive builder's files, once it built (tests). */
export function archiveBuilderFolder(db: Queryable): string | undefined {
  return builders.get(db)?.folder();
}

/** Stops this database's builder (when the app closes, before the database does). */
export async function closeArchiveBuilder(db: Queryable): Promise<void> {
  await builders.get(db)?.close();
  builders.delete(db);
}
