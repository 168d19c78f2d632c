#!/usr/bin/env node
// `npm run test:e2e`: builds the web app into a folder of this run and runs the Playwright specs in Debian's Chromium
// against a portal on a free port (or E2E_PORT) with a fresh data folder.
// Without a browser the suite is skipped with a notice, except under CI=true, where it fails.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './free-port.mjs';

const root = path.resolve(import.meta.dirname, '..');
// Debian's headless shell (Chromium without the full browser's UI: the kind of headless browser Playwright uses by
// default) takes a sixth less time than the full browser, whose headless mode runs its UI's renderers too; the same
// engine and version. The full browser where the shell is not installed.
const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';
const chromium = process.env.CHROMIUM_PATH ?? (fs.existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : '/usr/bin/chromium');
if (!fs.existsSync(chromium)) {
  const message = `No Chromium at ${chromium} (install Debian's packages: apt-get install -y chromium chromium-headless-shell).`;
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
// A port of this run too: two runs on one machine (two clones, a developer and CI) on the same
// port would share one server and each other's data, and fail at random. E2E_PORT fixes it.
const port = process.env.E2E_PORT ?? String(await freePort('0.0.0.0'));
// And a folder of its own for failure artifacts: Playwright empties its output folder at the start,
// which would delete a running run's traces (test-results/<run>, removed again when all passed).
const outputDir = process.env.E2E_OUTPUT_DIR ?? path.join(root, 'test-results', path.basename(runDir));
const env = { ...process.env, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1', CHROMIUM_PATH: chromium, E2E_DATA_DIR: dataDir, WEB_ROOT: webRoot, E2E_PORT: port, E2E_OUTPUT_DIR: outputDir };
const run = (args) => spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit', env }).status ?? 1;

let status = run([path.join(root, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn', '--outDir', webRoot, '--emptyOutDir']);
if (status === 0) status = run([path.join(root, 'node_modules/@playwright/test/cli.js'), 'test', ...process.argv.slice(2)]);
fs.rmSync(runDir, { recursive: true, force: true });
if (status === 0 && !process.env.E2E_OUTPUT_DIR) fs.rmSync(outputDir, { recursive: true, force: true });
else if (status !== 0) console.error(`Traces and screenshots of the failures: ${path.relative(root, outputDir)}`);
process.exit(status);
