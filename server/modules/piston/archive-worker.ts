/**
 * The certificate archive's builder in a worker thread: reading 80,000 rows and compressing tens of
 * megabytes would hold the event loop for seconds (every other request waits), so it runs here, on
 * its own connection to the same database, and keeps its pieces between builds (archive.ts).
 * Messages: { id, now } in; { id, body, etag, until, files? } or { id, error } out.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { openDatabase } from '../../db/database';
import { CertsArchive } from './archive';

// An idle connection the server drops is replaced by the pool when next needed.
const db = openDatabase({ ...workerData, poolSize: 2, onConnectionError: () => {} });
const archive = new CertsArchive(db);
let queue: Promise<unknown> = Promise.resolve();

parentPort!.on('message', ({ id, now, withFiles }: { id: number; now: number; withFiles: boolean }) => {
  // One build at a time: each one reuses what the previous one kept.
  queue = queue.then(async () => {
    try {
      const { archive: built, files, until } = await archive.build(new Date(now));
      // Handed over, not copied; a small body may sit in Node's shared buffer pool, which must stay here.
      const { buffer, byteOffset, byteLength } = built.body;
      const body = byteOffset === 0 && byteLength === buffer.byteLength ? buffer : buffer.slice(byteOffset, byteOffset + byteLength);
      parentPort!.postMessage({ id, body, etag: built.etag, until, files: withFiles ? files : undefined }, [body as ArrayBuffer]);
    } catch (error) {
      parentPort!.postMessage({ id, error: (error as Error).message });
    }
  });
});
