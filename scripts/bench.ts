/**
 * `npm run bench`: speed and memory of the real portal at a vendor's scale (docs/performance.md).
 * Generates (or reuses) the data set, starts the portal and a bare Fastify server as child
 * processes, loads each target over HTTP with autocannon interleaved with bare Fastify, prints a
 * table with PASS/FAIL per target and writes everything to bench-results/<engine>-<time>.json.
 * Exits 1 when a target fails. Not part of `npm test`.
 *
 *   BENCH_SIZE=quick (≈ 1/20), BENCH_ORGS, BENCH_CERTIFICATES, BENCH_LICENSES, BENCH_MEMBERS, BENCH_AUDIT,
 *   BENCH_DATABASE_URL (PostgreSQL), BENCH_ROUNDS, BENCH_DURATION, BENCH_CONNECTIONS, BENCH_ONLY, BENCH_REGENERATE=1
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROOT, loadBenchConfig } from './bench/config';
import { prepareDatabase } from './bench/database';
import { freePort, startBareFastify, startPortal, type ServerProcess } from './bench/servers';
import { load } from './bench/load';
import { makePortal, measureRebuild, runTargets, type Portal, type RebuildResult } from './bench/runner';
import { buildTargets } from './bench/targets';
import { judge, table } from './bench/report';
import { token } from './bench/people';
import { runRealUse, selected } from './bench/real-use';
import { ensureWebApp } from './bench/browse';
import { checkLines } from './bench/real-use-targets';

const log = (line: string) => console.log(line);

/** An API token of the download gateway, made as a person makes one (POST /api/token). */
async function apiToken(url: string, bearer: string): Promise<string> {
  const response = await fetch(`${url}/api/token`, {
    method: 'POST',
    headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json', 'x-requested-with': 'JavaScript' },
    body: JSON.stringify({ expires_in: 1, upn: 'bench-gateway', groups: ['piston_export'] }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`POST /api/token answered ${response.status}: ${text}`);
  return text.trim();
}

/**
 * An organization API key of the supervisor's organization, acting with the supervisor's role (issue 32), made
 * as an administrator makes one: the one-row target read with it instead of a person's token. Not read only: a
 * read-only key's answer lists fewer abilities, a smaller page that would flatter the key.
 */
async function apiKey(url: string, bearer: string): Promise<string> {
  const call = async (path: string, init: RequestInit = {}) => {
    const response = await fetch(`${url}${path}`, { ...init, headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' } });
    const text = await response.text();
    if (!response.ok) throw new Error(`${init.method ?? 'GET'} ${path} answered ${response.status}: ${text}`);
    return JSON.parse(text) as Record<string, unknown>;
  };
  const { organization_id: organization } = await call('/api/auth/callback');
  const key = await call(`/api/organizations/${String(organization)}/api-keys`, {
    method: 'POST',
    body: JSON.stringify({
      name: 'bench', roles: [{ role: 'SUPERVISOR', scope: 'COOPERATION' }],
      date_expires: new Date(Date.now() + 86_400_000).toISOString(),
    }),
  });
  return String(key.secret);
}

function machine() {
  const cpus = os.cpus();
  return {
    cpus: cpus.length, cpuModel: cpus[0]?.model ?? 'unknown', memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    node: process.version, platform: `${os.type()} ${os.release()}`, loadAverage: os.loadavg().map((l) => Number(l.toFixed(2))),
  };
}

/** The code measured: the commit, and the server files changed on top of it (others may be editing the tree). */
function code() {
  const git = (...args: string[]) => {
    try {
      return execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' });
    } catch {
      return '';
    }
  };
  const changed = git('status', '--porcelain', '--', 'server', 'common').split('\n').filter(Boolean).map((l) => l.slice(3));
  return { commit: git('rev-parse', '--short', 'HEAD').trim(), changed };
}

async function main() {
  const config = loadBenchConfig();
  const startedAt = new Date();
  const host = machine();
  const measured = code();
  log(`Benchmark on ${config.engine === 'sqlite' ? 'SQLite' : 'PostgreSQL'}, ${config.size} size: ${JSON.stringify(config.sizes)}`);
  log(`Code: ${measured.commit}${measured.changed.length ? ` with uncommitted changes in ${measured.changed.join(', ')}` : ''}`);
  log(`Machine: ${host.cpus} CPUs (${host.cpuModel}), ${host.memoryGiB} GiB, Node.js ${host.node}, load average ${host.loadAverage.join(' ')}`);

  const database = await prepareDatabase(config, log);
  if (selected(config.only, 'browse')) await ensureWebApp(log);
  log(database.generationSeconds == null ? `Data set ${database.cacheKey} reused` : `Data set ${database.cacheKey} generated in ${database.generationSeconds.toFixed(1)} s`);

  const port = await freePort();
  const servers: ServerProcess[] = [];
  let portal: Portal | undefined;
  const stopAll = async () => {
    await Promise.all([...servers.map((s) => s.stop()), portal?.current.stop()]);
  };
  process.once('SIGINT', () => void stopAll().then(() => process.exit(130)));
  try {
    // Cold start: spawn to /readyz answering, with the database already there.
    const coldStartMs: number[] = [];
    for (let i = 0; i < 3; i++) {
      const started = await startPortal(port, database.serverEnv);
      coldStartMs.push(started.startupMs);
      await started.stop();
    }
    log(`Cold starts: ${coldStartMs.map((m) => `${Math.round(m)} ms`).join(', ')}`);
    // The gateways' own token needs the master secret: the portal reads it from a file, as in production.
    const secretFile = path.join(os.tmpdir(), `portal-bench-secret-${process.pid}`);
    fs.writeFileSync(secretFile, 'bench-master-secret-of-this-run', { mode: 0o600 });
    process.once('exit', () => fs.rmSync(secretFile, { force: true }));
    // The load sends thousands of a key's requests a minute: its limit must not refuse them (it still leases and counts).
    const serverEnv = { ...database.serverEnv, MASTER_SECRET_FILE: secretFile, API_KEY_RATE_LIMIT: '1000000' };
    portal = await makePortal(port, serverEnv, log);
    const bare = await startBareFastify(await freePort());
    servers.push(bare);

    const issuer = `http://127.0.0.1:${port}/oidc`;
    const supervisor = await token(database.signingKey, issuer, 'supervisor@operator.example');
    const tokens = {
      supervisor,
      devops: await token(database.signingKey, issuer, 'devops@operator.example'),
      approver: await token(database.signingKey, issuer, 'approver@operator.example'),
    };
    const gateway = await apiToken(portal.current.url, supervisor);
    const targets = buildTargets(database.facts).filter((t) => config.only.length === 0 || config.only.some((o) => t.id.includes(o)));
    await load({ url: `${bare.url}/`, connections: config.connections, duration: 2, expect: 200 }); // warm-up
    const key = await apiKey(portal.current.url, supervisor);
    const runs = await runTargets(config, portal, bare, targets, { ...tokens, gateway, key }, database.busy, log);
    let rebuild: RebuildResult = { runsMs: [], eventLoopP99Ms: [], error: 'not measured (BENCH_ONLY)' };
    if (config.only.length === 0 || config.only.includes('rebuild')) {
      log('Certificate archive after a change');
      rebuild = await measureRebuild(portal, tokens, config.rounds, database.busy);
    }
    const realUse = await runRealUse({ config, portal, bare, busy: database.busy, log }, database, gateway);
    await stopAll();

    const verdict = judge(runs, config.engine, { coldStartMs, rebuild });
    const text = table(verdict);
    const realUseFailed = realUse.checks.filter((c) => !c.pass).length;
    const realUseText = realUse.checks.length ? `\n\nReal use (issue 29), ${config.engine === 'sqlite' ? 'SQLite' : 'PostgreSQL'}, load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}:\n${checkLines(realUse.checks)}` : '';
    const passed = verdict.passed + realUse.checks.length - realUseFailed;
    const failed = verdict.failed + realUseFailed;
    log(`\n${text}${realUseText}\n\n${passed} passed, ${failed} failed`);
    fs.mkdirSync(config.resultsDir, { recursive: true });
    const file = path.join(config.resultsDir, `${config.engine}-${startedAt.toISOString().replace(/[:.]/g, '-')}.json`);
    fs.writeFileSync(file, `${JSON.stringify({
      engine: config.engine, size: config.size, sizes: config.sizes, startedAt: startedAt.toISOString(),
      minutes: Number(((Date.now() - startedAt.getTime()) / 60_000).toFixed(1)), code: measured, machine: { ...host, loadAverageAtEnd: os.loadavg() },
      method: { rounds: config.rounds, durationSeconds: config.duration, singleClientSeconds: config.singleDuration, connections: config.connections },
      dataset: { key: database.cacheKey, generationSeconds: database.generationSeconds, facts: database.facts },
      verdict, table: text, runs, realUse,
    }, null, 2)}\n`);
    log(`Results: ${path.relative(process.cwd(), file)}`);
    process.exitCode = failed ? 1 : 0;
  } finally {
    await stopAll();
    await database.cleanup();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
