#!/usr/bin/env node
// `npm run test:e2e`: builds the web app into a folder of this run and runs the Playwright specs in Debian's Chromium.
// Without a browser the suite is skipped with a notice, except under CI=true, where it fails.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (!fs.existsSync(chromium)) {
  const message = `No Chromium at ${chromium} (install Debian's package: apt-get install -y chromium).`;
  if (process.env.CI === 'true') {
    console.error(`${message} CI=true: end-to-end tests are required.`);
    process.exit(1);
  }
  console.warn(`${message} Skipping the end-to-end tests.`);
  process.exit(0);
}

// A fresh data folder per run: the portal seeds its demo data into it on start.
// Its own build folder too, so a run never serves (or breaks) another run's or the developer's build.
const runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-e2e-'));
const dataDir = path.join(runDir, 'data');
const webRoot = path.join(runDir, 'web');
const env = { ...process.env, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1', E2E_DATA_DIR: dataDir, WEB_ROOT: webRoot };
const run = (args) => spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit', env }).status ?? 1;

let status = run([path.join(root, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn', '--outDir', webRoot, '--emptyOutDir']);
if (status === 0) status = run([path.join(root, 'node_modules/@playwright/test/cli.js'), 'test', ...process.argv.slice(2)]);
fs.rmSync(runDir, { recursive: true, force: true });
process.exit(status);
