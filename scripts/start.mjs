#!/usr/bin/env node
// `npm start`: builds the web app when its build is missing or older than its sources, then builds
// and runs the server (migrations and, outside production, demo data on an empty database happen there).
import { spawnSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const built = path.join(root, 'dist/web/index.html');

function newestMtime(dir) {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) newest = Math.max(newest, fs.statSync(path.join(entry.parentPath, entry.name)).mtimeMs);
  }
  return newest;
}

const sources = [path.join(root, 'web'), path.join(root, 'common')];
const stale = !fs.existsSync(built) || Math.max(...sources.map(newestMtime), fs.statSync(path.join(root, 'CHANGELOG.md')).mtimeMs) > fs.statSync(built).mtimeMs;
if (stale) {
  console.log('Building the web app…');
  const result = spawnSync(process.execPath, [path.join(root, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

// The server runs from its bundle (scripts/build-server.mjs), built afresh each time: plain Node
// starts it in a fraction of the time the TypeScript loader takes.
const { buildServer, SERVER_NODE_ARGS } = await import('./build-server.mjs');
const server = spawn(process.execPath, [...SERVER_NODE_ARGS, await buildServer()], { cwd: root, stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code) => process.exit(code ?? 0));
