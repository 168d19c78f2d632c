#!/usr/bin/env node
// `npm test`: types and lint first (a minute, and a failure there makes the rest moot), then the unit and API
// suite (Vitest) and the end-to-end suite (Playwright) side by side. Each alone leaves a core of this two-core
// machine idle most of the time (Vitest waits on PostgreSQL and child processes, Playwright on the browser and
// the server); together they finish in about the time of the longer one. Every line is prefixed with its suite;
// the exit status fails when either fails. `npm run test:unit` and `npm run test:e2e` still run one alone.
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';

const root = path.resolve(import.meta.dirname, '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

for (const script of ['typecheck', 'lint']) {
  const status = spawnSync(npm, ['run', '-s', script], { cwd: root, stdio: 'inherit' }).status ?? 1;
  if (status !== 0) process.exit(status);
}

/** Runs `npm run <script>`, its lines prefixed; answers its exit status. */
function prefixed(script, label) {
  return new Promise((resolve) => {
    const started = Date.now();
    // FORCE_COLOR keeps the reporters' colours through the pipe where the terminal has them.
    const child = spawn(npm, ['run', '-s', script], { cwd: root, env: { ...process.env, ...(process.stdout.isTTY ? { FORCE_COLOR: '1' } : {}) } });
    for (const [stream, out] of [[child.stdout, process.stdout], [child.stderr, process.stderr]]) {
      readline.createInterface({ input: stream }).on('line', (line) => out.write(`${label} ${line}\n`));
    }
    child.on('close', (code, signal) => {
      const status = code ?? (signal ? 1 : 0);
      console.log(`${label} ${status === 0 ? 'passed' : `FAILED (${signal ?? `exit ${code}`})`} in ${((Date.now() - started) / 60_000).toFixed(1)} min`);
      resolve(status);
    });
  });
}

const statuses = await Promise.all([prefixed('test:unit', '[unit]'), prefixed('test:e2e', '[e2e] ')]);
process.exit(statuses.every((s) => s === 0) ? 0 : 1);
