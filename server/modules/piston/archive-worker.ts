/**
 * The certificate archive's builder in a child process (archive-builder.ts): reading thousands of
 * rows and compressing megabytes would hold the event loop (every other request waits), and the
 * memory a build takes stays with the process that took it; a child that exits when idle gives it
 * back. It builds on its own connection to the same database and keeps its pieces between builds
 * (archive.ts).
 *
 * The bytes go through files in the builder's private folder, not through the channel: a message
 * of 20 MB is serialized and read back on the parent's event loop (30–60 ms each way at 100,000
 * certificates), while the parent reads a file on libuv's thread pool. Each build writes the
 * archive and the kept state (its pieces as spans of the archive) where the request says (`out`);
 * a new child goes on from the pair of the last build the parent read (`seed`), so a rebuild after
 * an idle exit compresses only what changed. Without that pair it starts from nothing: the same
 * bytes, only slower.
 * Messages: { id, now, withFiles, location, out, seed? } in; { id, length, etag, until, files?,
 * timing } or { id, error } out. Exits when its parent disconnects (idle, or the app closing) or
 * goes away.
 */
import fs from 'node:fs/promises';
import v8 from 'node:v8';
import { openDatabase, type Db } from '../../db/database';
import { CertsArchive, type ArchiveFile, type KeptState } from './archive';

export interface BuildRequest {
  id: number;
  now: number;
  withFiles: boolean;
  location: { databaseUrl?: string; sqliteFile?: string };
  /** Where this build's archive and kept state go, in a folder only this builder uses. */
  out: BuildFiles;
  /** The files of the build a new process goes on from: only in the first request to it. */
  seed?: BuildFiles;
}

export interface BuildFiles {
  archive: string;
  state: string;
}

export type BuildReply =
  | { id: number; error: string }
  | { id: number; error?: undefined; length: number; etag: string; until: number | null; files?: ArchiveFile[]; timing: Record<string, number> };

let db: Db | undefined;
let archive: CertsArchive | undefined;
let queue: Promise<unknown> = Promise.resolve();

const reply = (message: BuildReply) => process.send!(message);

/** Written under another name first and renamed: a file the parent finds is whole. */
async function writeWhole(file: string, bytes: Buffer): Promise<void> {
  await fs.writeFile(`${file}.partial`, bytes);
  await fs.rename(`${file}.partial`, file);
}

async function restoreFrom(seed: BuildFiles): Promise<void> {
  try {
    const [body, state] = await Promise.all([fs.readFile(seed.archive), fs.readFile(seed.state)]);
    archive!.restore(v8.deserialize(state) as KeptState, body);
  } catch {
    // Gone or unreadable: this build starts from nothing.
  }
}

process.on('message', (request: BuildRequest) => {
  // One build at a time: each one goes on from what the previous one kept.
  queue = queue.then(async () => {
    try {
      if (!archive) {
        // An idle connection the server drops is replaced by the pool when next needed (db/pg-pool.ts). It only
        // reads: the portal's connection has the checkpoints (db/checkpoints.ts).
        db = openDatabase({ ...request.location, poolSize: 2, checkpoints: false });
        archive = new CertsArchive(db);
      }
      if (request.seed) await restoreFrom(request.seed);
      const { archive: built, files, until } = await archive.build(new Date(request.now), request.withFiles);
      await Promise.all([writeWhole(request.out.state, v8.serialize(archive.keptState())), writeWhole(request.out.archive, built.body)]);
      reply({ id: request.id, length: built.body.length, etag: built.etag, until: Number.isFinite(until) ? until : null, files, timing: archive.timing });
    } catch (error) {
      reply({ id: request.id, error: (error as Error).message });
    }
  });
});

process.on('disconnect', () => {
  void Promise.resolve(db?.destroy()).finally(() => process.exit(0));
});
