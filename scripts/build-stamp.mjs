// What a build was made from: each part of `npm run build` (dist/web, dist/server) carries a SHA-256 of its sources
// in a file `.sources` beside its output. `npm start` compares it with the sources in the folder: outside production to
// build again what changed, in production to refuse a stale build. File times are no guide: a checkout, a copy or an
// unpacked archive sets them anew, and a build copied in (a runtime-only install) then looked older than its sources.
// No dependencies: a production start loads this and the built server, nothing else.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * The inputs of each part, relative to the project folder. `present` is a file only the sources have: a release
 * without its sources (the image, docs/decisions.md "Running in production") has nothing to compare.
 */
export const BUILD_PARTS = {
  web: { present: 'web/index.html', inputs: ['web', 'common', 'RELEASE-NOTES.md', 'vite.config.ts', 'scripts/web-chunks.ts'] },
  server: { present: 'server/main.ts', inputs: ['server', 'common', 'scripts/build-server.mjs'] },
};

const STAMP = '.sources';
/** Tests sit beside the sources and are never built. */
const NOT_BUILT = /\.test\.tsx?$/;

/** Every file under `entry` (a file or a folder), as paths relative to `root` with forward slashes. */
function filesOf(root, entry) {
  const full = path.join(root, entry);
  if (!fs.existsSync(full)) return [];
  if (!fs.statSync(full).isDirectory()) return [entry];
  return fs
    .readdirSync(full, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && !NOT_BUILT.test(e.name))
    .map((e) => path.relative(root, path.join(e.parentPath, e.name)).split(path.sep).join('/'));
}

/** The hash of a part's sources in `root`, or undefined when the folder holds no sources of it. */
export function sourcesHash(root, part) {
  const { present, inputs } = BUILD_PARTS[part];
  if (!fs.existsSync(path.join(root, present))) return undefined;
  const hash = createHash('sha256');
  for (const file of inputs.flatMap((entry) => filesOf(root, entry)).sort()) {
    hash.update(`${file}\0`).update(fs.readFileSync(path.join(root, file))).update('\0');
  }
  return hash.digest('hex');
}

/** The hash a build in `dir` was made from, or undefined (no build there, or one made otherwise). */
export function stampOf(dir) {
  try {
    return fs.readFileSync(path.join(dir, STAMP), 'utf8').trim();
  } catch {
    return undefined;
  }
}

export function writeStamp(dir, hash) {
  fs.writeFileSync(path.join(dir, STAMP), `${hash}\n`);
}
