#!/usr/bin/env node
// `npm test`: three lanes side by side: types then lint (a minute, two with the machine busy), the unit and API
// suite (Vitest), and the end-to-end suite (Playwright). Each alone leaves a core of this two-core machine idle much
// of the time (Vitest waits on PostgreSQL and child processes, Playwright on the browser and the server); together
// they finish in about the time of the longest. The checks no longer hold the unit suite back: they took two minutes
// of a 15-minute run with both cores busy elsewhere. A type or lint error stops every lane (the rest is moot). Every
// line is prefixed with its lane; the exit status fails when any fails.
// The end-to-end lane is the longest and has the machine first: the other two run at a lower priority (nice 10) on
// what it leaves idle. Side by side at one priority, a machine half as fast as the one before took 15.4 minutes.
// `npm run test:unit` and `npm run test:e2e` still run one alone.
import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';

const root = path.resolve(import.meta.dirname, '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

const running = new Set();

/** Runs `npm run <script>`, its lines prefixed, at `priority` (a nice value); answers its exit status. */
function prefixed(script, label, priority = 0) {
  return new Promise((resolve) => {
    const started = Date.now();
    // FORCE_COLOR keeps the reporters' colours through the pipe where the terminal has them.
    // A process group of its own, so that stopping it stops the browser and servers it started.
    const child = spawn(npm, ['run', '-s', script], { cwd: root, detached: true, env: { ...process.env, ...(process.stdout.isTTY ? { FORCE_COLOR: '1' } : {}) } });
    running.add(child);
    // Set before npm starts the suite: the processes it starts inherit it.
    if (priority !== 0) os.setPriority(child.pid, priority);
    for (const [stream, out] of [[child.stdout, process.stdout], [child.stderr, process.stderr]]) {
      readline.createInterface({ input: stream }).on('line', (line) => out.write(`${label} ${line}\n`));
    }
    child.on('close', (code, signal) => {
      running.delete(child);
      const status = code ?? (signal ? 1 : 0);
      console.log(`${label} ${status === 0 ? 'passed' : `FAILED (${signal ?? `exit ${code}`})`} in ${((Date.now() - started) / 60_000).toFixed(1)} min`);
      resolve(status);
    });
  });
}

/** Types, then lint; an error in either stops the other lanes. */
async function checks() {
  for (const [script, label] of [['typecheck', '[type]'], ['lint', '[lint]']]) {
    const status = await prefixed(script, label, BESIDE);
    if (status !== 0) {
      for (const child of running) process.kill(-child.pid, 'SIGTERM');
      return status;
    }
  }
  return 0;
}

// Ctrl-C reaches the lanes' process groups too.
process.on('SIGINT', () => {
  for (const child of running) process.kill(-child.pid, 'SIGINT');
});

/** The priority of the lanes beside the end-to-end suite. */
const BESIDE = 10;

const statuses = await Promise.all([checks(), prefixed('test:unit', '[unit]', BESIDE), prefixed('test:e2e', '[e2e] ')]);
process.exit(statuses.every((s) => s === 0) ? 0 : 1);
