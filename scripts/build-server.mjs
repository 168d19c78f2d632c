#!/usr/bin/env node
// Bundles the server into dist/server (main.mjs and the archive worker) with esbuild, the
// dependencies left as imports: `npm start` and the benchmark run it with plain Node. Loading
// ~150 TypeScript files through tsx's module hooks took most of a cold start (3.9 s of which about
// 2 s were the loader); the bundle loads in a fraction of that. It takes well under a second, so
// `npm start` outside production builds it every time and never runs a stale one; in production
// `npm run build` (scripts/build.mjs) has built it, stamped with its sources' hash (build-stamp.mjs).
import fs from 'node:fs';
import path from 'node:path';
import { build, stop } from 'esbuild';
import { sourcesHash, writeStamp } from './build-stamp.mjs';

const root = path.resolve(import.meta.dirname, '..');

/**
 * How Node runs the bundle (`npm start`, the benchmark). Source maps for readable stack traces.
 * package.json's `start`, the Dockerfile and deploy/customer-portal.service write them out again
 * (test/reliability/release.test.ts checks they agree).
 * A young generation of at most 2 × 16 MB: on a machine with gigabytes free, Node 24 grows it to 2 × 64 MB
 * under load, which alone put the RSS past 300 MB with 50–70 MB live. An old generation of at most 192 MB: under
 * V8's own limit (4 GB here) it grew to 110–130 MB for 50–70 MB live between full collections, and the Buffers of
 * the answers it had sent waited for those collections too: 300–380 MB of RSS under the bench's loads, 230–280 MB
 * with the cap, at the same throughput (docs/performance.md "Memory"). Not lower: at 160 MB V8 collected in a loop
 * once the heap neared it. The live heap is small by design: kept answers, exports and the archive are Buffers.
 * An operator who needs more raises it in the places README "What matters in production" names, and here.
 */
export const SERVER_NODE_ARGS = ['--enable-source-maps', '--max-semi-space-size=16', '--max-old-space-size=192'];

/** Builds into `outdir` (dist/server) and answers the path of its main.mjs. */
export async function buildServer(outdir = path.join(root, 'dist/server')) {
  // Built beside and swapped in whole: chunk names carry a hash of their content, so no stale chunk
  // stays beside new ones, and a server already running from outdir (another npm start, the bench)
  // finds complete files whenever it loads one (the archive worker starts on first use).
  const fresh = `${outdir}.${process.pid}.new`;
  fs.rmSync(fresh, { recursive: true, force: true });
  const hash = sourcesHash(root, 'server');
  await build({
    absWorkingDir: root,
    entryPoints: { main: 'server/main.ts', 'archive-worker': 'server/modules/piston/archive-worker.ts' },
    outdir: fresh,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node22.12',
    packages: 'external',
    outExtension: { '.js': '.mjs' },
    sourcemap: true,
    logLevel: 'warning',
  });
  // esbuild's service process would otherwise live as long as the caller, which is the portal under `npm start`.
  await stop();
  writeStamp(fresh, hash);
  const old = `${outdir}.${process.pid}.old`;
  if (fs.existsSync(outdir)) fs.renameSync(outdir, old);
  fs.renameSync(fresh, outdir);
  fs.rmSync(old, { recursive: true, force: true });
  return path.join(outdir, 'main.mjs');
}

if (import.meta.url === `file://${process.argv[1]}`) await buildServer();
