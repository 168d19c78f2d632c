/**
 * The certificate archive's builder in a child process (archive-builder.ts): reading thousands of
 * rows and compressing megabytes would hold the event loop (every other request waits), and the
 * memory a build takes stays with the process that took it; a child that exits when idle gives it
 * back. It builds on its own connection to the same database and keeps its pieces between builds
 * (archive.ts); a new one starts from the pieces its parent kept (`seed`).
 * Messages (advanced serialization): { id, now, withFiles, location, seed? } in;
 * { id, delta, length, etag, until, files?, state, timing } or { id, error } out, where `delta` is
 * the archive as spans of the previous one (which the parent has) and new bytes: a rebuild after a
 * change sends the parent the pieces that changed, not 20 MB. Exits when its parent
 * disconnects (idle, or the app closing) or goes away.
 */
import { openDatabase, type Db } from '../../db/database';
import { CertsArchive, type ArchiveFile, type KeptState, type Segment } from './archive';

export interface BuildRequest {
  id: number;
  now: number;
  withFiles: boolean;
  location: { databaseUrl?: string; sqliteFile?: string };
  /** The parent's kept state and the archive it points into: only in the first request to a new process. */
  seed?: { state: KeptState; body: Buffer };
}

export type BuildReply =
  | { id: number; error: string }
  | { id: number; error?: undefined; delta: Segment[]; length: number; etag: string; until: number | null; files?: ArchiveFile[]; state: KeptState; timing: Record<string, number> };

let db: Db | undefined;
let archive: CertsArchive | undefined;
let queue: Promise<unknown> = Promise.resolve();

const reply = (message: BuildReply) => process.send!(message);

process.on('message', (request: BuildRequest) => {
  // One build at a time: each one goes on from what the previous one kept.
  queue = queue.then(async () => {
    try {
      if (!archive) {
        // An idle connection the server drops is replaced by the pool when next needed.
        db = openDatabase({ ...request.location, poolSize: 2, onConnectionError: () => {} });
        archive = new CertsArchive(db);
      }
      if (request.seed) archive.restore(request.seed.state, Buffer.from(request.seed.body.buffer, request.seed.body.byteOffset, request.seed.body.byteLength));
      const { archive: built, delta, files, until } = await archive.build(new Date(request.now), request.withFiles);
      reply({
        id: request.id, delta, length: built.body.length, etag: built.etag, until: Number.isFinite(until) ? until : null, files,
        state: archive.keptState(), timing: archive.timing,
      });
    } catch (error) {
      reply({ id: request.id, error: (error as Error).message });
    }
  });
});

process.on('disconnect', () => {
  void Promise.resolve(db?.destroy()).finally(() => process.exit(0));
});
