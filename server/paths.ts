/**
 * Where the project's own files are, whether the server runs from its sources (tsx) or from the
 * bundle `npm start` builds into dist/server (scripts/build-server.mjs): the nearest folder
 * upwards that holds this project's package.json.
 */
import fs from 'node:fs';
import path from 'node:path';

function findProjectRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'package.json')) && fs.existsSync(path.join(dir, 'server'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`No project folder above ${from}`);
  }
}

export const PROJECT_ROOT = findProjectRoot(import.meta.dirname);

/** A file of the server's sources (a stylesheet, a template), by its path under server/. */
export const serverFile = (relative: string) => path.join(PROJECT_ROOT, 'server', relative);
