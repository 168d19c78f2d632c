#!/usr/bin/env node
// `npm run test:node-versions [-- 22 26 [--head] [--keep]] [-- <vitest filters>]`: the unit and API test suite (Vitest,
// SQLite and, when it answers, PostgreSQL) on other Node versions than the baseline (.node-version, what `npm test` and
// CI run): by default 22, still supported, and 26, the next. Each version comes from the npm registry (the `node`
// package, a full Node build) into a folder of its own; the suite runs in a copy of this working tree whose
// node_modules links to ours. better-sqlite3 13 is a Node-API addon whose binaries ship in its package: the same
// file loads on every Node from 22 on, so nothing is compiled. Our node_modules is never written. Not part of
// `npm test` (minutes per version).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const args = process.argv.slice(2);
const split = args.indexOf('--');
const own = split === -1 ? args : args.slice(0, split);
const versions = own.filter((a) => a !== '--keep' && a !== '--head');
const keep = own.includes('--keep');
// The last commit instead of the working tree: a result that names one commit.
const head = own.includes('--head');
const vitestArgs = split === -1 ? [] : args.slice(split + 1);
if (versions.length === 0) versions.push('22', '26');
for (const v of versions) {
  if (!/^\d+(\.\d+){0,2}$/.test(v)) {
    console.error(`Not a Node version: ${v} (e.g. 22, 26 or 22.12.0)`);
    process.exit(2);
  }
}

/** Runs a command, its output to ours; answers its exit status. */
function run(command, commandArgs, options) {
  const result = spawnSync(command, commandArgs, { stdio: 'inherit', ...options });
  if (result.error) console.error(`${command}: ${result.error.message}`);
  return result.status ?? 1;
}

/** Installs node@version from the npm registry below `folder` (as .ci/run does); answers its binary. */
function installNode(version, folder) {
  // The package's preinstall script puts the platform's binary in place: allowed by name.
  fs.writeFileSync(path.join(folder, 'package.json'), `${JSON.stringify({ private: true, allowScripts: { node: true } })}\n`);
  const status = run('npm', ['install', '--no-save', '--no-audit', '--no-fund', '--loglevel=error', `node@${version}`], { cwd: folder });
  if (status !== 0) throw new Error(`npm install node@${version} failed (${status})`);
  const binary = path.join(folder, 'node_modules/node/bin', process.platform === 'win32' ? 'node.exe' : 'node');
  if (!fs.existsSync(binary)) throw new Error(`node@${version} has no binary at ${binary}`);
  return binary;
}

/** This working tree as git sees it (tracked and new files, nothing ignored), without node_modules; or HEAD's files. */
function copyProject(dest) {
  fs.mkdirSync(dest);
  if (head) {
    const archive = path.join(path.dirname(dest), 'head.tar');
    if (run('git', ['archive', '--format=tar', `--output=${archive}`, 'HEAD'], { cwd: root }) !== 0 || run('tar', ['-xf', archive, '-C', dest]) !== 0) throw new Error('git archive HEAD failed');
    return;
  }
  const listed = spawnSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: root, encoding: 'buffer', maxBuffer: 64 << 20 });
  if (listed.status !== 0) throw new Error(`git ls-files failed: ${listed.stderr}`);
  for (const file of listed.stdout.toString('utf8').split('\0').filter(Boolean)) {
    const from = path.join(root, file);
    if (!fs.existsSync(from)) continue; // deleted in the working tree
    fs.mkdirSync(path.dirname(path.join(dest, file)), { recursive: true });
    fs.copyFileSync(from, path.join(dest, file));
  }
}

/** node_modules of links to ours. */
function linkModules(dest) {
  const ours = path.join(root, 'node_modules');
  const theirs = path.join(dest, 'node_modules');
  fs.mkdirSync(theirs);
  for (const entry of fs.readdirSync(ours)) {
    // Caches (.vite, .cache) stay ours; the copy makes its own.
    if (entry.startsWith('.') && entry !== '.bin') continue;
    fs.symlinkSync(path.join(ours, entry), path.join(theirs, entry), 'junction');
  }
}

function gitState() {
  const commit = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).stdout.trim();
  if (head) return commit;
  const dirty = spawnSync('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: root, encoding: 'utf8' }).stdout.trim() !== '';
  return `${commit}${dirty ? ' with uncommitted changes' : ''}`;
}

/** One version: install, copy, run. Answers what happened. */
function testOn(version) {
  const started = Date.now();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `portal-node${version}-`));
  const result = { version, node: '?', outcome: 'FAIL', detail: '', minutes: '0' };
  try {
    console.log(`\n=== Node ${version}: installing from the npm registry into ${dir}`);
    fs.mkdirSync(path.join(dir, 'node'));
    const binary = installNode(version, path.join(dir, 'node'));
    result.node = spawnSync(binary, ['--version'], { encoding: 'utf8' }).stdout.trim();
    const project = path.join(dir, 'project');
    copyProject(project);
    linkModules(project);
    // Whatever the suite starts by name (npm, node, tsx's children) runs on this Node too.
    const env = { ...process.env, PATH: `${path.dirname(binary)}${path.delimiter}${process.env.PATH}` };
    const check = spawnSync(binary, ['-e', "new (require('better-sqlite3'))(':memory:').prepare('select 1').get()"], { cwd: project, encoding: 'utf8' });
    if (check.status !== 0) {
      result.detail = `better-sqlite3 does not load: ${check.stderr.trim().split('\n')[0] || check.signal}`;
      return result;
    }
    console.log(`=== Node ${result.node}: vitest run ${vitestArgs.join(' ')}`);
    const status = run(binary, [path.join(project, 'node_modules/vitest/vitest.mjs'), 'run', ...vitestArgs], { cwd: project, env });
    result.outcome = status === 0 ? 'PASS' : 'FAIL';
    result.detail = status === 0 ? '' : `vitest exited with ${status}`;
    return result;
  } catch (error) {
    result.detail = error.message;
    return result;
  } finally {
    result.minutes = ((Date.now() - started) / 60_000).toFixed(1);
    if (keep) console.log(`=== kept ${dir}`);
    else fs.rmSync(dir, { recursive: true, force: true });
  }
}

const tree = gitState();
const results = versions.map(testOn);
console.log(`\nThe test suite (${vitestArgs.length ? `vitest run ${vitestArgs.join(' ')}` : 'vitest run: all unit and API tests'}) on ${tree}, Node ${process.version} running npm:`);
for (const r of results) console.log(`  Node ${r.version} (${r.node}): ${r.outcome} in ${r.minutes} min${r.detail ? ` - ${r.detail}` : ''}`);
process.exit(results.every((r) => r.outcome === 'PASS') ? 0 : 1);
