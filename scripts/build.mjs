#!/usr/bin/env node
// `npm run build`: the web app into dist/web (Vite) and the server into dist/server (esbuild, scripts/build-server.mjs),
// each stamped with the hash of its sources (scripts/build-stamp.mjs). What a production start runs, and all it runs.
// Outside production `npm start` calls these itself for what is missing or stale.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { sourcesHash, writeStamp } from './build-stamp.mjs';
import { buildServer } from './build-server.mjs';

const root = path.resolve(import.meta.dirname, '..');

/**
 * Runs Node with `args` in a child process, stopped with this one: a SIGINT or SIGTERM while it runs (npm forwards
 * them; a terminal's Ctrl-C reaches both anyway) ends the child first, then this process, so no build goes on alone.
 */
function runNode(args) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: root, stdio: 'inherit' });
    const stop = (signal) => {
      child.kill(signal);
      child.once('exit', () => process.exit(128 + (signal === 'SIGINT' ? 2 : 15)));
    };
    for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, stop);
    child.once('exit', (code, signal) => {
      for (const s of ['SIGINT', 'SIGTERM']) process.off(s, stop);
      if (code === 0) resolve();
      else reject(new Error(`the web app's build failed (${signal ?? `exit ${code}`})`));
    });
  });
}

/** Builds the web app into dist/web with Vite, in a process of its own (the caller may be the portal, which would keep Vite's memory). */
export async function buildWeb() {
  const hash = sourcesHash(root, 'web');
  await runNode([path.join(root, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn']);
  writeStamp(path.join(root, 'dist/web'), hash);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    await buildWeb();
    await buildServer();
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
}
