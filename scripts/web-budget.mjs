#!/usr/bin/env node
// `npm run web:budget`: the JavaScript the first screen after sign-in loads, gzipped, against the
// budget of issue 10 (170 KB). Builds the web app into a temporary folder with Vite's manifest and
// follows the import graph: the entry (index.html) and its static imports, then the route chunks
// the router loads for an organization's Certificates page (its layout and its page) with their
// static imports. Chunks that those load later, on a click (the phone menu, the toasts, other
// routes), are not part of the first screen and are not counted. The sign-in screen (/login) is
// reported too, for information.
//
// Sizes are gzip level 9 of each file as built, the bytes a browser that asks for gzip receives
// (the server sends the precompressed .gz or, to most browsers, the smaller .br; both are listed).
// Exits 1 above the budget. WEB_BUDGET_KB=<n> changes it; --keep keeps the build and prints its folder.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';

const root = path.resolve(import.meta.dirname, '..');
const BUDGET_KB = Number(process.env.WEB_BUDGET_KB ?? 170);
const keep = process.argv.includes('--keep');

/** The route modules (web/router.tsx) of each screen, below the entry. */
const SCREENS = {
  'first screen after sign-in: /organizations/:orgId/certificates': ['layouts/DefaultLayout.tsx', 'features/certificates/CertificatesPage.tsx'],
  'sign-in screen: /login': ['layouts/BareLayout.tsx', 'pages/welcome/WelcomePage.tsx'],
};

const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-web-budget-'));
const vite = path.join(root, 'node_modules/vite/bin/vite.js');
const build = spawnSync(process.execPath, [vite, 'build', '--logLevel', 'warn', '--outDir', outDir, '--emptyOutDir', '--manifest'], { cwd: root, stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);

const manifest = JSON.parse(fs.readFileSync(path.join(outDir, '.vite/manifest.json'), 'utf8'));
const entryKey = Object.keys(manifest).find((key) => manifest[key].isEntry);
const reachableByImport = new Set(Object.values(manifest).flatMap((chunk) => chunk.dynamicImports ?? []));

const sizes = new Map();
function sizeOf(file) {
  if (!sizes.has(file)) {
    const bytes = fs.readFileSync(path.join(outDir, file));
    sizes.set(file, {
      raw: bytes.length,
      gzip: zlib.gzipSync(bytes, { level: 9 }).length,
      brotli: zlib.brotliCompressSync(bytes, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
    });
  }
  return sizes.get(file);
}

/** The chunks a set of modules loads: each with its static imports, transitively. */
function closure(keys) {
  const seen = new Set();
  const visit = (key) => {
    if (seen.has(key)) return;
    if (!manifest[key]) throw new Error(`${key} is not in the build: update SCREENS in scripts/web-budget.mjs to the router's modules`);
    seen.add(key);
    for (const imported of manifest[key].imports ?? []) visit(imported);
  };
  keys.forEach(visit);
  return seen;
}

const kb = (bytes) => (bytes / 1024).toFixed(1);
let failed = false;
console.log(`Web app build: ${Object.values(manifest).filter((c) => c.file.endsWith('.js')).length} JavaScript chunks`);
for (const [screen, routes] of Object.entries(SCREENS)) {
  for (const route of routes) {
    if (!reachableByImport.has(route)) throw new Error(`${route} is no lazy route of the build: update SCREENS in scripts/web-budget.mjs`);
  }
  const chunks = [...closure([entryKey, ...routes])].map((key) => ({ file: manifest[key].file, ...sizeOf(manifest[key].file) }));
  const css = [...new Set([...closure([entryKey, ...routes])].flatMap((key) => manifest[key].css ?? []))].map((file) => ({ file, ...sizeOf(file) }));
  const sum = (list, key) => list.reduce((total, item) => total + item[key], 0);
  const gzip = sum(chunks, 'gzip');
  const first = screen.startsWith('first screen');
  const verdict = first ? (gzip / 1024 <= BUDGET_KB ? 'PASS' : 'FAIL') : '';
  if (verdict === 'FAIL') failed = true;
  console.log(`\n${screen}`);
  console.log(`  JavaScript: ${chunks.length} files, ${kb(sum(chunks, 'raw'))} KB raw, ${kb(gzip)} KB gzip, ${kb(sum(chunks, 'brotli'))} KB brotli${first ? `  (budget ${BUDGET_KB} KB gzip: ${verdict})` : ''}`);
  console.log(`  CSS:        ${css.length} files, ${kb(sum(css, 'raw'))} KB raw, ${kb(sum(css, 'gzip'))} KB gzip, ${kb(sum(css, 'brotli'))} KB brotli`);
  for (const chunk of chunks.sort((a, b) => b.gzip - a.gzip).slice(0, first ? 12 : 6)) {
    console.log(`  ${kb(chunk.gzip).padStart(7)} KB gz  ${kb(chunk.raw).padStart(7)} KB  ${chunk.file}`);
  }
}

if (keep) console.log(`\nBuild kept in ${outDir}`);
else fs.rmSync(outDir, { recursive: true, force: true });
process.exit(failed ? 1 : 0);
