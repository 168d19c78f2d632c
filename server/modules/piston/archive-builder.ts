/**
 * Who builds the certificate archive for a database: a worker thread with its own connection
 * (archive-worker.ts), so the event loop keeps answering during a rebuild; or, for an in-memory
 * SQLite database that no second connection can open (tests), the process itself.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { databaseLocation, type Queryable } from '../../db/database';
import { CertsArchive, type ArchiveFile, type Export } from './archive';

export interface Built {
  archive: Export;
  until: number;
  /** Only when asked for: the statistics name the archive's files. */
  files?: ArchiveFile[];
}

interface Builder {
  build(now: Date, withFiles: boolean): Promise<Built>;
  close(): Promise<void>;
}

const here = fileURLToPath(import.meta.url);
// The worker is this folder's archive-worker, compiled like this file (.ts under tsx, .js when built).
const WORKER_FILE = path.join(path.dirname(here), `archive-worker${path.extname(here)}`);

/** The worker's entry: the file itself, or under tsx (development, tests) the file loaded through tsx's loader. */
function workerEntry(): [string | URL, { eval?: boolean }] {
  if (!WORKER_FILE.endsWith('.ts')) return [pathToFileURL(WORKER_FILE), {}];
  // require.resolve finds the CommonJS build; its ESM twin is the one that registers the loader.
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm/api').replace(/\.cjs$/, '.mjs')).href;
  const file = pathToFileURL(WORKER_FILE).href;
  return [`import(${JSON.stringify(tsx)}).then((m) => { m.register(); return import(${JSON.stringify(file)}); })`, { eval: true }];
}

type Reply = { id: number; error?: string; body?: ArrayBuffer; etag?: string; until?: number; files?: ArchiveFile[] };

function workerBuilder(location: { databaseUrl?: string; sqliteFile?: string }): Builder {
  let worker: Worker | undefined;
  let nextId = 0;
  const waiting = new Map<number, { resolve: (b: Built) => void; reject: (e: Error) => void }>();
  const fail = (error: Error) => {
    for (const w of waiting.values()) w.reject(error);
    waiting.clear();
    worker = undefined; // the next build starts a new one
  };
  const start = () => {
    const [entry, options] = workerEntry();
    const w = new Worker(entry, { ...options, workerData: location });
    w.unref(); // a build in progress does not keep a closing process alive
    w.on('message', (reply: Reply) => {
      const call = waiting.get(reply.id);
      if (!call) return;
      waiting.delete(reply.id);
      if (reply.error !== undefined) return call.reject(new Error(`Certificate archive: ${reply.error}`));
      call.resolve({ archive: { body: Buffer.from(reply.body!), etag: reply.etag! }, until: reply.until!, files: reply.files });
    });
    w.on('error', fail);
    w.on('exit', (code) => worker === w && fail(new Error(`Certificate archive: the worker stopped (${code})`)));
    return w;
  };
  return {
    build(now, withFiles) {
      worker ??= start();
      const id = nextId++;
      const reply = new Promise<Built>((resolve, reject) => waiting.set(id, { resolve, reject }));
      worker.postMessage({ id, now: now.getTime(), withFiles });
      return reply;
    },
    async close() {
      const w = worker;
      worker = undefined;
      await w?.terminate();
    },
  };
}

function inProcessBuilder(db: Queryable): Builder {
  const archive = new CertsArchive(db);
  let queue: Promise<unknown> = Promise.resolve();
  return {
    build(now, withFiles) {
      const built = queue.then(async () => {
        const { archive: result, until, files } = await archive.build(now);
        return { archive: result, until, files: withFiles ? files : undefined };
      });
      queue = built.catch(() => {});
      return built;
    },
    close: async () => {},
  };
}

const builders = new WeakMap<object, Builder>();

/** The archive of the trusted certificates at `now`, built by this database's builder. */
export function buildCertsArchive(db: Queryable, now: Date, withFiles = false): Promise<Built> {
  let builder = builders.get(db);
  if (!builder) {
    const location = databaseLocation(db);
    builders.set(db, (builder = location ? workerBuilder(location) : inProcessBuilder(db)));
  }
  return builder.build(now, withFiles);
}

/** Stops this database's worker (when the app closes, before the database does). */
export async function closeArchiveBuilder(db: Queryable): Promise<void> {
  await builders.get(db)?.close();
  builders.delete(db);
}
