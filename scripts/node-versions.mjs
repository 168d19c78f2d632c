#!/usr/bin/env node
// `npm run test:node-versions [-- 22 24 [--head] [--keep]] [-- <vitest filters>]`: the unit and API test suite (Vitest,
// SQLite and, when it answers, PostgreSQL) on other Node versions than the one that runs npm. Each version comes from the npm
// registry (the `node` package, a full Node build with its headers) into a folder of its own; the suite runs in a
// copy of this working tree whose node_modules links to ours, except better-sqlite3: a native addon built for
// one Node ABI, copied and compiled there with that Node and the package's headers (npm's own node-gyp, run in the
// copy's folder: `npm rebuild` in a tree of links follows them and would rebuild ours). Our node_modules is never
// written. Not part of `npm test` (minutes per version).
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
if (versions.length === 0) versions.push('22', '24');
for (const v of versions) {
  if (!/^\d+(\.\d+){0,2}$/.test(v)) {
    console.error(`Not a Node version: ${v} (e.g. 22, 24 or 22.12.0)`);
    process.exit(2);
  }
}

/**
 * The headers better-sqlite3 is compiled against, per major version, where the version's own would
 * break it. Node 24.19 moved cleanup-hook code into node_object_wrap.h, which an addon compiles into
 * itself; better-sqlite3 12 built with those headers aborts in a GC outside a JS context
 * (`node::RemoveEnvironmentCleanupHook`, "Assertion failed: (env) != nullptr"). The binary that
 * `npm install` downloads for Node 24 (better-sqlite3 12.11.1's prebuild, June 2026) was built before
 * 24.19, so users get what these headers make; the runtime is still the newest 24 (same ABI, 137).
 * docs/decisions.md "Platform".
 */
const BUILD_HEADERS = { 24: '24.18.1' };

/** Runs a command, its output to ours; answers its exit status. */
function run(command, commandArgs, options) {
  const result = spawnSync(command, commandArgs, { stdio: 'inherit', ...options });
  if (result.error) console.error(`${command}: ${result.error.message}`);
  return result.status ?? 1;
}

/** Installs node@version from the npm registry below `folder`; answers its binary and the folder of its headers. */
function installNode(version, folder) {
  const status = run('npm', ['install', '--no-save', '--no-audit', '--no-fund', '--loglevel=error', '--prefix', folder, `node@${version}`], { cwd: folder });
  if (status !== 0) throw new Error(`npm install node@${version} failed (${status})`);
  const pkg = path.join(folder, 'node_modules/node');
  const binary = path.join(pkg, 'bin', process.platform === 'win32' ? 'node.exe' : 'node');
  // The package installs the build for this platform as node-<platform>-<arch>, with include/node.
  const builds = path.join(pkg, 'node_modules');
  const build = fs.existsSync(builds) ? fs.readdirSync(builds).find((name) => name.startsWith(`node-${process.platform}-`)) : undefined;
  if (!fs.existsSync(binary)) throw new Error(`node@${version} has no binary at ${binary}`);
  return { binary, headers: build ? path.join(builds, build) : undefined };
}

/** npm's own node-gyp (the one `npm rebuild` would run). */
function nodeGyp() {
  const npmRoots = [];
  if (process.env.npm_execpath) npmRoots.push(path.resolve(path.dirname(process.env.npm_execpath), '..'));
  const globalRoot = spawnSync('npm', ['root', '-g'], { encoding: 'utf8' }).stdout?.trim();
  if (globalRoot) npmRoots.push(path.join(globalRoot, 'npm'));
  const found = npmRoots.map((r) => path.join(r, 'node_modules/node-gyp/bin/node-gyp.js')).find((f) => fs.existsSync(f));
  if (!found) throw new Error(`npm's node-gyp not found (looked in ${npmRoots.join(', ')})`);
  return found;
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

/** node_modules of links to ours, except a real copy of better-sqlite3 (rebuilt afterwards). */
function linkModules(dest) {
  const ours = path.join(root, 'node_modules');
  const theirs = path.join(dest, 'node_modules');
  fs.mkdirSync(theirs);
  for (const entry of fs.readdirSync(ours)) {
    // Caches (.vite, .cache) stay ours; the copy makes its own.
    if (entry.startsWith('.') && entry !== '.bin') continue;
    if (entry === 'better-sqlite3') {
      fs.cpSync(path.join(ours, entry), path.join(theirs, entry), { recursive: true, filter: (src) => !src.includes(`${path.sep}build${path.sep}`) });
    } else {
      fs.symlinkSync(path.join(ours, entry), path.join(theirs, entry), 'junction');
    }
  }
}

function gitState() {
  const commit = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).stdout.trim();
  if (head) return commit;
  const dirty = spawnSync('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: root, encoding: 'utf8' }).stdout.trim() !== '';
  return `${commit}${dirty ? ' with uncommitted changes' : ''}`;
}

/** One version: install, copy, rebuild, run. Answers what happened. */
function testOn(version) {
  const started = Date.now();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `portal-node${version}-`));
  const result = { version, node: '?', outcome: 'FAIL', detail: '', minutes: '0' };
  try {
    console.log(`\n=== Node ${version}: installing from the npm registry into ${dir}`);
    fs.mkdirSync(path.join(dir, 'node'));
    const { binary, headers: ownHeaders } = installNode(version, path.join(dir, 'node'));
    result.node = spawnSync(binary, ['--version'], { encoding: 'utf8' }).stdout.trim();
    const buildVersion = BUILD_HEADERS[result.node.slice(1).split('.')[0]];
    let headers = ownHeaders;
    if (buildVersion && buildVersion !== result.node.slice(1)) {
      fs.mkdirSync(path.join(dir, 'headers'));
      headers = installNode(buildVersion, path.join(dir, 'headers')).headers;
      console.log(`=== Node ${result.node}: better-sqlite3 is compiled against Node ${buildVersion}'s headers, as its released binary was`);
    }
    const project = path.join(dir, 'project');
    copyProject(project);
    linkModules(project);
    // Whatever the suite starts by name (npm, node, tsx's children) runs on this Node too.
    const env = { ...process.env, PATH: `${path.dirname(binary)}${path.delimiter}${process.env.PATH}` };
    if (!headers) throw new Error(`node@${version} came without its headers (no node-${process.platform}-* build in the package)`);
    const addon = path.join(project, 'node_modules/better-sqlite3');
    // Only ever the copy: a link here would point into our node_modules.
    if (fs.lstatSync(addon).isSymbolicLink() || !fs.realpathSync(addon).startsWith(fs.realpathSync(dir) + path.sep)) throw new Error(`${addon} is not a copy`);
    const abi = spawnSync(binary, ['-p', 'process.versions.modules'], { encoding: 'utf8' }).stdout.trim();
    console.log(`=== Node ${result.node}: compiling better-sqlite3 for its ABI ${abi} (${process.versions.modules} here)`);
    const ours = path.join(root, 'node_modules/better-sqlite3/build/Release/better_sqlite3.node');
    const oursBefore = fs.statSync(ours, { throwIfNoEntry: false })?.mtimeMs;
    const build = spawnSync(binary, [nodeGyp(), 'rebuild', '--release', `--nodedir=${headers}`], { cwd: addon, env, encoding: 'utf8', maxBuffer: 256 << 20 });
    if (fs.statSync(ours, { throwIfNoEntry: false })?.mtimeMs !== oursBefore) throw new Error(`the build wrote ${ours}: run npm rebuild better-sqlite3 here`);
    if (build.status !== 0) {
      console.error(`${build.stdout}${build.stderr}`.trim().split('\n').slice(-30).join('\n'));
      result.detail = 'better-sqlite3 did not build';
      return result;
    }
    const check = spawnSync(binary, ['-e', "new (require('better-sqlite3'))(':memory:').prepare('select 1').get()"], { cwd: project, encoding: 'utf8' });
    if (check.status !== 0) {
      result.detail = `better-sqlite3 does not load: ${check.stderr.trim().split('\n')[0]}`;
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
