/**
 * The portal as operators run it (issue 31 items 2 and 4), on one `npm run build` in a copy of the project:
 * - NODE_ENV=production without a build, or with one older than its sources, stops at once naming `npm run build`
 *   and writes nothing into the app folder;
 * - SIGTERM to `npm start` ends the portal gracefully: new connections are refused, a request in flight is answered
 *   and its write kept, the archive's child process stops, npm exits 0 and no process is left (no esbuild either);
 * - a runtime-only install (the build and the production dependencies, as `npm ci --omit=dev` leaves them) starts
 *   with `NODE_ENV=production npm start`, serves, writes nothing into the app folder and ends on SIGTERM with 0;
 * - the release as the Dockerfile makes and runs it (its COPY lines, ENV, USER, HEALTHCHECK and CMD): another user
 *   than the app folder's owner, the app folder read-only, the data folder the only writable place besides the
 *   temporary folder (the image's tmpfs); ready by the HEALTHCHECK's own command; SIGTERM ends it with 0.
 * Linux only: the process checks read /proc.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from '../../server/db/database';
import { loadConfig } from '../../server/config';
import { SERVER_NODE_ARGS } from '../../scripts/build-server.mjs';
import { signToken } from '../support/tokens';
import { alive, descendantsOf, freePort, processesIn, waitFor } from '../support/processes';

const root = path.resolve(import.meta.dirname, '../..');
/** What a checkout holds that the build and the start read (tests and docs are not needed). */
const SOURCES = ['package.json', 'package-lock.json', 'CHANGELOG.md', 'RELEASE-NOTES.md', 'vite.config.ts', 'tsconfig.json', 'scripts', 'server', 'common', 'web'];

const cleanups: Array<() => void> = [];
// Two copies of the production dependencies go: 20,000 files, over a minute under load with every file chmod-ed first.
afterAll(() => {
  for (const cleanup of cleanups.reverse()) cleanup();
}, 180_000);

function tempDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  cleanups.push(() => {
    writable(dir);
    fs.rmSync(dir, { recursive: true, force: true });
  });
  return dir;
}

/** Every file and folder under `dir` (symbolic links not followed, only folders if `foldersOnly`), each mode changed by `change`. */
function chmodTree(dir: string, change: (mode: number) => number, foldersOnly = false) {
  const entries = [dir, ...fs.readdirSync(dir, { recursive: true }).map((name) => path.join(dir, String(name)))];
  for (const entry of entries) {
    const stat = fs.lstatSync(entry, { throwIfNoEntry: false });
    if (!stat || stat.isSymbolicLink() || (foldersOnly && !stat.isDirectory())) continue;
    const mode = change(stat.mode & 0o7777);
    if (mode !== (stat.mode & 0o7777)) fs.chmodSync(entry, mode);
  }
}
const readOnly = (dir: string) => chmodTree(dir, (mode) => mode & ~0o222);
/** Removable again: what a removal needs is write access to the folders, not to the files in them. */
const writable = (dir: string) => {
  if (fs.existsSync(dir)) chmodTree(dir, (mode) => mode | 0o200, true);
};

/** A checkout: the sources, and node_modules as the project's (a link: a developer's install). */
function checkout(dir: string) {
  for (const entry of SOURCES) fs.cpSync(path.join(root, entry), path.join(dir, entry), { recursive: true });
  fs.symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'));
}

/** Each file under `dir` with its size and time, node_modules left out: to tell that a run wrote nothing there. */
function listing(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const name of fs.readdirSync(dir, { recursive: true }).map(String)) {
    if (name.split(path.sep)[0] === 'node_modules') continue;
    const stat = fs.lstatSync(path.join(dir, name));
    files[name] = `${stat.size} ${stat.mtimeMs}`;
  }
  return files;
}

/** The environment of a portal started here: none of this test run's own settings (Vitest's NODE_ENV=test, npm's). */
function portalEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const own = /^(npm_|VITEST|NODE_ENV$|NODE_OPTIONS$|DATABASE_URL$|TEST_DATABASE_URL$|WEB_ROOT$|PORT$|HOST$|PUBLIC_URL$|DATA_DIR$|SEED_DEMO$)/;
  return { ...Object.fromEntries(Object.entries(process.env).filter(([key]) => !own.test(key))), LOG_LEVEL: 'info', ...extra };
}

interface Running {
  child: ChildProcess;
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function start(command: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv; uid?: number; gid?: number }): Running {
  // A process group of its own: should a test fail half-way, the clean-up ends everything it started, orphans too.
  const child = spawn(command, args, { ...options, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let text = '';
  child.stdout!.on('data', (chunk: Buffer) => (text += chunk));
  child.stderr!.on('data', (chunk: Buffer) => (text += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('close', (code, signal) => resolve({ code, signal })));
  cleanups.push(() => {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // the group is gone
    }
  });
  return { child, output: () => text, exited };
}

async function run(command: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv }) {
  const running = start(command, args, options);
  const { code } = await running.exited;
  return { code, output: running.output() };
}

async function until(check: () => Promise<boolean>, timeoutMs: number, what: string) {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${what} did not happen within ${timeoutMs} ms`);
}

/** Whether a new connection to the port is refused (the portal no longer accepts). */
const refused = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
  });

/** The web app's page and one of its scripts, as a browser loads them. */
async function servesWebApp(url: string) {
  const page = await fetch(url);
  expect(page.status).toBe(200);
  const html = await page.text();
  const script = /<script type="module" crossorigin src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
  expect(script).toBeDefined();
  expect((await fetch(`${url}${script}`)).status).toBe(200);
}

/** The Node options of a command line: what stands before the script. */
const nodeOptions = (words: string[]) => words.slice(words.indexOf('node') + 1).filter((word) => word.startsWith('--'));

let app: string;
let release: string | undefined;

/**
 * The release a runtime-only install leaves: the checkout with its build, and instead of the link the production
 * dependencies only, as `npm ci --omit=dev` installs them (the lockfile's packages not marked dev), copied from ours.
 */
function runtimeRelease(): string {
  if (release) return release;
  const dir = tempDir('portal-runtime-');
  fs.cpSync(app, dir, { recursive: true, filter: (source) => source !== path.join(app, 'node_modules') });
  const lock = JSON.parse(fs.readFileSync(path.join(app, 'package-lock.json'), 'utf8')) as { packages: Record<string, { dev?: boolean; devOptional?: boolean }> };
  for (const [key, entry] of Object.entries(lock.packages)) {
    // Top-level packages only; nested ones come with their parent. One for another platform is not installed.
    if (!/^node_modules\/(@[^/]+\/)?[^/]+$/.test(key) || entry.dev || entry.devOptional) continue;
    if (fs.existsSync(path.join(root, key))) fs.cpSync(path.join(root, key), path.join(dir, key), { recursive: true, verbatimSymlinks: true });
  }
  return (release = dir);
}

describe.runIf(process.platform === 'linux')('the release', () => {
  beforeAll(async () => {
    app = tempDir('portal-release-');
    fs.chmodSync(app, 0o755);
    checkout(app);
    const build = await run('npm', ['run', 'build'], { cwd: app, env: portalEnv({}) });
    expect(build.code, build.output).toBe(0);
  }, 300_000);

  it('NODE_ENV=production without a build, or with a stale one, stops naming `npm run build` and writes nothing', async () => {
    const bare = tempDir('portal-unbuilt-');
    checkout(bare);
    const before = listing(bare);
    // DATA_DIR is ./data by default: a start that got as far as the database would make it.
    const missing = await run('npm', ['start'], { cwd: bare, env: portalEnv({ NODE_ENV: 'production' }) });
    expect(missing.code).not.toBe(0);
    expect(missing.output).toContain('NODE_ENV=production runs the built portal only, and the build is missing (dist/server/main.mjs, dist/web/index.html). Run `npm run build`');
    expect(listing(bare)).toEqual(before);

    // This checkout's build, copied in (every file newer than the sources: times say nothing), then one source changed.
    fs.cpSync(path.join(app, 'dist'), path.join(bare, 'dist'), { recursive: true });
    fs.appendFileSync(path.join(bare, 'server/startup.ts'), '\n// changed after the build\n');
    const built = listing(bare);
    const stale = await run('npm', ['start'], { cwd: bare, env: portalEnv({ NODE_ENV: 'production' }) });
    expect(stale.code).not.toBe(0);
    expect(stale.output).toContain('its build is out of date: the sources of dist/server (server, common, scripts/build-server.mjs) changed since it was built. Run `npm run build`');
    expect(stale.output).not.toContain('dist/web');
    expect(listing(bare)).toEqual(built);
  }, 60_000);

  it('ends on SIGTERM through `npm start`: the request in flight is answered and kept, nothing is left running, exit 0', async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const dataDir = tempDir('portal-sigterm-data-');
    const tmpDir = tempDir('portal-sigterm-tmp-');
    // Outside production, with the demo data: npm start builds the server (esbuild) before it runs it.
    const env = portalEnv({ NODE_ENV: 'development', PORT: String(port), PUBLIC_URL: url, DATA_DIR: dataDir, TMPDIR: tmpDir, SHUTDOWN_GRACE_SECONDS: '60' });
    const portal = start('npm', ['start'], { cwd: app, env });
    await waitFor(`${url}/readyz`, 90_000);

    const db = openDatabase({ sqliteFile: path.join(dataDir, 'portal.db') });
    const { oidc } = loadConfig({ PORT: String(port), PUBLIC_URL: url, NODE_ENV: 'test' });
    const sign = (email: string) => signToken(db, { email, email_verified: true }, { issuer: oidc.issuer, audience: oidc.audience });
    const [admin, devops] = [await sign('admin@operator.example'), await sign('devops@operator.example')];
    await db.destroy();
    // The certificate archive is built in a child process of the portal's.
    expect((await fetch(`${url}/api/piston/certs`, { headers: { authorization: `Bearer ${devops}` } })).status).toBe(200);
    const tree = descendantsOf(portal.child.pid!);
    // `exec`: the portal in npm's child itself, no shell between; its archive builder below; no esbuild left.
    expect(tree.map((p) => p.command)).toEqual(expect.arrayContaining([expect.stringMatching(/ scripts\/start\.mjs$/), expect.stringMatching(/archive-worker\.mjs$/)]));
    expect(tree.filter((p) => /esbuild|^sh /.test(p.command))).toEqual([]);

    // A request in flight: the portal has it in hand once it asks for the body (100 Continue); the body comes later.
    const name = `Shutdown Test ${port}`;
    const body = JSON.stringify({ organization_name: name, organization_role: 'CUSTOMER' });
    const request = http.request(`${url}/api/organizations`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), expect: '100-continue' },
    });
    const answer = new Promise<{ status: number; connection?: string; body: string }>((resolve, reject) => {
      request.on('response', (response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode!, connection: response.headers.connection, body: text }));
      });
      request.on('error', reject);
    });
    await new Promise<void>((resolve) => request.once('continue', () => resolve()));
    request.write(body.slice(0, 10));

    portal.child.kill('SIGTERM'); // to npm, as a process manager sends it
    await until(() => refused(port), 15_000, 'new connections refused');
    expect(alive(portal.child.pid!)).toBe(true);
    request.end(body.slice(10));
    const answered = await answer;
    expect(answered.status).toBe(201);
    expect(JSON.parse(answered.body)).toMatchObject({ organization_name: name });
    expect(answered.connection).toBe('close');

    expect(await portal.exited).toEqual({ code: 0, signal: null });
    for (const p of tree) expect(alive(p.pid), p.command).toBe(false);
    expect(processesIn(app)).toEqual([]);
    // The answered write was committed before the database closed; the archive's files are gone.
    const reopened = openDatabase({ sqliteFile: path.join(dataDir, 'portal.db') });
    const rows = await reopened.selectFrom('organizations').select('organization_name').where('organization_name', '=', name).execute();
    await reopened.destroy();
    expect(rows).toHaveLength(1);
    // (npm keeps its own compile cache in the temporary folder too.)
    expect(fs.readdirSync(tmpDir).filter((name) => name.startsWith('portal-archive-'))).toEqual([]);
    // The shutdown's own lines, and no job failing against a closed database meanwhile: they stopped first.
    const lines = portal.output().split('\n').filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as { level: number; msg: string });
    const from = lines.findIndex((l) => l.msg === 'shutting down: requests in flight have 60 s to finish');
    expect(from).toBeGreaterThan(-1);
    expect(lines.slice(from).filter((l) => l.level >= 40)).toEqual([]);
    expect(lines.at(-1)?.msg).toBe('shut down');
  }, 150_000);

  it('runs from a runtime-only install with `NODE_ENV=production npm start`, writing nothing into the app folder', async () => {
    const dir = runtimeRelease();
    // Nothing the bundle imports, at start or later (import(), the packages loaded when used), is a dev dependency.
    const bundle = fs.readdirSync(path.join(dir, 'dist/server')).filter((f) => f.endsWith('.mjs')).map((f) => fs.readFileSync(path.join(dir, 'dist/server', f), 'utf8')).join('\n');
    const imported = [
      ...bundle.matchAll(/^import\s[^;]*?from\s*"([^"]+)"/gm),
      ...bundle.matchAll(/^import\s*"([^"]+)"/gm),
      ...bundle.matchAll(/\b(?:import|loadWhenUsed)\("([^"]+)"\)/g),
    ].map((m) => m[1]).filter((name) => !name.startsWith('node:') && !name.startsWith('.'));
    const packages = [...new Set(imported.map((name) => name.split('/').slice(0, name.startsWith('@') ? 2 : 1).join('/')))];
    expect(packages).toEqual(expect.arrayContaining(['fastify', 'oidc-provider', 'pg', 'nodemailer', 'better-sqlite3']));
    expect(packages.filter((name) => !fs.existsSync(path.join(dir, 'node_modules', name, 'package.json')))).toEqual([]);

    const before = listing(dir);
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const dataDir = tempDir('portal-runtime-data-');
    const env = portalEnv({ NODE_ENV: 'production', PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: url, DATA_DIR: dataDir });
    const portal = start('npm', ['start'], { cwd: dir, env });
    await waitFor(`${url}/readyz`, 60_000);
    await servesWebApp(url);
    expect((await fetch(`${url}/api/config`)).status).toBe(200);
    // The built-in provider, loaded once the portal is ready.
    expect((await fetch(`${url}/oidc/.well-known/openid-configuration`)).status).toBe(200);
    // The build's stamp is no file the portal serves.
    expect(await (await fetch(`${url}/.sources`)).text()).not.toContain(fs.readFileSync(path.join(dir, 'dist/web/.sources'), 'utf8').trim());

    portal.child.kill('SIGTERM');
    expect(await portal.exited).toEqual({ code: 0, signal: null });
    expect(processesIn(dir)).toEqual([]);
    expect(listing(dir)).toEqual(before);
  }, 120_000);

  it('runs as the Dockerfile runs it: built output, production dependencies, another user, a read-only app folder', async () => {
    const dockerfile = fs.readFileSync(path.join(root, 'Dockerfile'), 'utf8');
    // The image's Node is the one in .node-version.
    const images = [...dockerfile.matchAll(/^FROM\s+(\S+)/gm)].map((m) => m[1]);
    expect(images).toEqual(Array(2).fill(`node:${fs.readFileSync(path.join(root, '.node-version'), 'utf8').trim()}-trixie-slim`));
    const stage = finalStage(dockerfile);
    // Its Node options are the bundle's (scripts/build-server.mjs), as in package.json's start and the systemd unit.
    const startScript = (JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start;
    const unitStart = /^ExecStart=(.*)$/m.exec(fs.readFileSync(path.join(root, 'deploy/customer-portal.service'), 'utf8'))![1];
    for (const words of [stage.cmd, startScript.split(' '), unitStart.split(' ')]) {
      expect(nodeOptions(words)).toEqual(SERVER_NODE_ARGS);
      expect(words.at(-1)).toBe('scripts/start.mjs');
    }
    expect(stage.cmd[0]).toBe('node');
    expect(stage.user).not.toBe('root');
    expect(stage.volumes).toEqual([stage.env.DATA_DIR]);

    // The image's /app: what the final stage copies from the build stage's /app, which is the runtime-only release.
    const from = runtimeRelease();
    const image = tempDir('portal-image-');
    for (const copy of stage.copies) {
      expect(copy.from).toBe('build');
      const dest = path.resolve(image, path.relative(stage.workdir, path.resolve(stage.workdir, copy.dest)));
      for (const source of copy.sources) {
        expect(source.startsWith(`${stage.workdir}/`)).toBe(true);
        const target = copy.dest.endsWith('/') ? path.join(dest, path.basename(source)) : dest;
        fs.cpSync(path.join(from, path.relative(stage.workdir, source)), target, { recursive: true, verbatimSymlinks: true });
      }
    }
    // Another user than the folder's owner where this runs as root (root writes anywhere), else this user with the
    // write bits off: the app folder cannot be written either way. The data folder (the volume) and the temporary
    // folder (the tmpfs a read-only container mounts on /tmp) are the user's.
    const asRoot = process.getuid?.() === 0;
    const user = asRoot ? { uid: 65534, gid: 65534 } : {};
    const dataDir = tempDir('portal-image-data-');
    const tmpDir = tempDir('portal-image-tmp-');
    for (const dir of [dataDir, tmpDir]) if (asRoot) fs.chownSync(dir, 65534, 65534);
    fs.chmodSync(image, 0o755);
    readOnly(image);

    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const env = portalEnv({ ...stage.env, DATA_DIR: dataDir, TMPDIR: tmpDir, PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: url });
    const node = process.execPath;
    const portal = start(node, stage.cmd.slice(1), { cwd: image, env, ...user });
    // Ready by the image's HEALTHCHECK command, as Docker runs it.
    const healthy = () => Promise.resolve(spawnSync(node, stage.healthcheck.slice(1), { env, ...user, timeout: 10_000 }).status === 0);
    expect(stage.healthcheck[0]).toBe('node');
    await until(healthy, 60_000, 'the HEALTHCHECK passing');
    expect((await fetch(`${url}/readyz`)).status).toBe(200);
    await servesWebApp(url);

    portal.child.kill('SIGTERM'); // docker stop
    expect(await portal.exited).toEqual({ code: 0, signal: null });
    expect(portal.output()).toContain('"msg":"shut down"');
    expect(processesIn(image)).toEqual([]);
    // It wrote its database and nothing else; the temporary folder is left empty.
    expect(fs.readdirSync(dataDir).filter((name) => !name.startsWith('portal.db'))).toEqual([]);
    expect(fs.readdirSync(dataDir)).toContain('portal.db');
    expect(fs.readdirSync(tmpDir)).toEqual([]);
  }, 120_000);
});

/** The final stage of a Dockerfile, as far as running it needs: its ENV, WORKDIR, COPY lines, USER, VOLUME, HEALTHCHECK and CMD. */
function finalStage(dockerfile: string) {
  const lines = dockerfile
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'));
  const stage = {
    env: {} as Record<string, string>,
    workdir: '/',
    copies: [] as Array<{ from?: string; sources: string[]; dest: string }>,
    user: 'root',
    volumes: [] as string[],
    healthcheck: [] as string[],
    cmd: [] as string[],
  };
  for (const line of lines.slice(lines.findLastIndex((l) => /^FROM\s/i.test(l)) + 1)) {
    const [, instruction, rest] = /^(\w+)\s+(.*)$/.exec(line)!;
    switch (instruction.toUpperCase()) {
      case 'ENV':
        for (const [, key, value] of rest.matchAll(/(\w+)=(\S+)/g)) stage.env[key] = value;
        break;
      case 'WORKDIR':
        stage.workdir = path.posix.resolve(stage.workdir, rest);
        break;
      case 'COPY': {
        const words = rest.split(/\s+/);
        const from = words.find((w) => w.startsWith('--from='))?.slice('--from='.length);
        const paths = words.filter((w) => !w.startsWith('--'));
        stage.copies.push({ from, sources: paths.slice(0, -1), dest: paths.at(-1)! });
        break;
      }
      case 'USER':
        stage.user = rest;
        break;
      case 'VOLUME':
        stage.volumes.push(...(JSON.parse(rest) as string[]));
        break;
      case 'HEALTHCHECK':
        stage.healthcheck = JSON.parse(rest.slice(rest.indexOf(' CMD ') + 5)) as string[];
        break;
      case 'CMD':
        stage.cmd = JSON.parse(rest) as string[];
        break;
    }
  }
  return stage;
}
