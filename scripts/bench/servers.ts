/**
 * The processes under test: the real portal (its bundle `node dist/server/main.mjs`, as `npm start`
 * runs it) and the bare Fastify server, each a child process on its own port; and what is read
 * from the portal while it is loaded: its RSS from /proc (peak, sampled) and its event-loop delay
 * from /metrics (prom-client's `nodejs_eventloop_lag_p99_seconds`, reset by every scrape).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROOT } from './config';

export interface ServerProcess {
  url: string;
  pid: number;
  /** Milliseconds from spawn until it answered `readyPath`. */
  startupMs: number;
  /** The last lines it printed, for error messages. */
  output(): string;
  /** SIGTERM (graceful), SIGKILL after 10 s; `kill` sends SIGKILL at once. */
  stop(kill?: boolean): Promise<void>;
}

export { freePort } from '../free-port.mjs';

/** GET that answers true for a 200 within `timeoutMs`. */
async function answers(url: string, timeoutMs: number): Promise<boolean> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
    await response.arrayBuffer();
    return response.status === 200;
  } catch {
    return false;
  }
}

/** Polls `url` until it answers 200 or `timeoutMs` passed. */
async function waitUntilAnswering(url: string, timeoutMs: number): Promise<boolean> {
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    if (await answers(url, Math.max(100, Math.min(5_000, deadline - performance.now())))) return true;
    await new Promise((r) => setTimeout(r, 20));
  }
  return false;
}

/** The portal's own settings are given explicitly; none leaks in from the caller's environment. */
const PORTAL_VARIABLES = /^(NODE_ENV|PORT|HOST|PUBLIC_URL|DATA_DIR|DATABASE_URL|DATABASE_.*_TIMEOUT_SECONDS|SEED_DEMO|OIDC_.*|MASTER_SECRET_FILE|LOG_LEVEL|TRUST_PROXY|WEB_ROOT|METRICS_TOKEN)$/;

/** The scrape token of the portals this run starts: production serves /metrics only with one (docs/decisions.md "Start-up and metrics"). */
const METRICS_TOKEN = randomBytes(24).toString('base64url');

async function startProcess(args: string[], port: number, env: Record<string, string>, readyPath: string, timeoutMs: number): Promise<ServerProcess> {
  const script = path.relative(ROOT, args[args.length - 1]);
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([k]) => !PORTAL_VARIABLES.test(k)));
  // The output goes to a file, as a production log would, and is read only for error messages: piping
  // the per-request lines of LOG_LEVEL=info into the bench would charge their reading to the shared cores.
  const logFile = path.join(os.tmpdir(), `portal-bench-${process.pid}-${port}-${path.basename(script)}.log`);
  const logFd = fs.openSync(logFile, 'w');
  const started = performance.now();
  const child: ChildProcess = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...inherited, ...env, PORT: String(port) },
    stdio: ['ignore', logFd, logFd],
  });
  fs.closeSync(logFd);
  const tail = () => {
    try {
      const fd = fs.openSync(logFile, 'r');
      const size = fs.fstatSync(fd).size;
      const buffer = Buffer.alloc(Math.min(4000, size));
      fs.readSync(fd, buffer, 0, buffer.length, size - buffer.length);
      fs.closeSync(fd);
      return buffer.toString('utf8');
    } catch {
      return '';
    }
  };
  let exited = false;
  const exit = new Promise<void>((resolve) => child.once('exit', () => ((exited = true), resolve())));
  const url = `http://127.0.0.1:${port}`;
  const ready = await Promise.race([waitUntilAnswering(`${url}${readyPath}`, timeoutMs), exit.then(() => false)]);
  if (!ready) {
    child.kill('SIGKILL');
    throw new Error(`${script} did not start within ${timeoutMs} ms:\n${tail()}`);
  }
  const startupMs = performance.now() - started;
  return {
    url,
    pid: child.pid!,
    startupMs,
    output: tail,
    async stop(kill = false) {
      if (exited) return;
      child.kill(kill ? 'SIGKILL' : 'SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exit;
      clearTimeout(timer);
      fs.rmSync(logFile, { force: true });
    },
  };
}

/** The portal as `npm start` runs it: its bundle (scripts/build-server.mjs), built once per bench run. */
let bundle: Promise<{ file: string; args: string[] }> | undefined;

export async function startPortal(port: number, databaseEnv: Record<string, string>): Promise<ServerProcess> {
  bundle ??= import('../build-server.mjs').then(async (m) => ({ file: await m.buildServer(), args: m.SERVER_NODE_ARGS }));
  // BENCH_CPU_PROF=1: each portal writes a V8 CPU profile into bench-results/profiles when it stops (open it in Chrome's DevTools).
  const profile = process.env.BENCH_CPU_PROF === '1' ? ['--cpu-prof', `--cpu-prof-dir=${path.join(ROOT, 'bench-results/profiles')}`] : [];
  const { file, args } = await bundle;
  return startProcess([...profile, ...args, file], port, {
    ...databaseEnv,
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    // No LOG_LEVEL: production's default (info), one line per request, as `npm start` logs.
    SEED_DEMO: 'false',
    METRICS_TOKEN,
  }, '/readyz', 120_000);
}

export function startBareFastify(port: number): Promise<ServerProcess> {
  return startProcess(['--import', 'tsx', path.join(ROOT, 'scripts/bench/hello-server.ts')], port, {}, '/', 30_000);
}

/** Resident set size of a process in MiB, from /proc (Linux); null elsewhere. */
function rssMb(pid: number): number | null {
  return residentOf(pid)?.total ?? null;
}

/** What the resident set is made of (MiB): anonymous memory (heaps, buffers) and mapped files (code, SQLite's file). */
export interface Resident {
  total: number;
  anonymous: number;
  file: number;
}

function residentOf(pid: number): Resident | null {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)?.[1] ?? NaN) / 1024;
    const total = kb('VmRSS');
    return Number.isNaN(total) ? null : { total, anonymous: kb('RssAnon'), file: kb('RssFile') + kb('RssShmem') };
  } catch {
    return null;
  }
}

/** The ids of a process's children (the archive builder), from /proc (Linux); empty elsewhere. */
function childPids(pid: number): number[] {
  try {
    return fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name)).map(Number).filter((child) => {
      try {
        // The parent id is the 2nd field after the parenthesised name.
        return Number(fs.readFileSync(`/proc/${child}/stat`, 'utf8').replace(/^.*\) /s, '').split(' ')[1]) === pid;
      } catch {
        return false;
      }
    });
  } catch {
    return [];
  }
}

export interface MemorySampler {
  /** Peaks in MiB: the portal alone (with its makeup then), and the portal with its child processes. */
  stop(): { portalMb: number | null; withChildrenMb: number | null; portalAtPeak: Resident | null };
}

/** Samples the RSS of the portal and of the portal plus its children every 250 ms (issue 29: ≤ 250 / ≤ 400 MB). */
export function sampleMemory(pid: number): MemorySampler {
  let portal: number | null = null;
  let atPeak: Resident | null = null;
  let total: number | null = null;
  let children: number[] = [];
  let ticks = 0;
  const take = () => {
    const resident = residentOf(pid);
    if (resident == null) return;
    const own = resident.total;
    if (own > (portal ?? -1)) atPeak = resident;
    // Scanning /proc costs the bench a millisecond or two: the child list is refreshed every second only.
    if (ticks++ % 4 === 0) children = childPids(pid);
    const sum = own + children.reduce((s, c) => s + (rssMb(c) ?? 0), 0);
    portal = Math.max(portal ?? 0, own);
    total = Math.max(total ?? 0, sum);
  };
  take();
  const timer = setInterval(take, 250);
  return {
    stop() {
      clearInterval(timer);
      ticks = 0;
      take();
      return { portalMb: portal, withChildrenMb: total, portalAtPeak: atPeak };
    },
  };
}

/** Samples a process's RSS every 200 ms; calls `onSample` with each value. */
export function sampleRss(pid: number, onSample: (mb: number) => void): { stop(): number | null } {
  let peak: number | null = null;
  const take = () => {
    const mb = rssMb(pid);
    if (mb == null) return;
    peak = Math.max(peak ?? 0, mb);
    onSample(mb);
  };
  take();
  const timer = setInterval(take, 200);
  return {
    stop() {
      clearInterval(timer);
      take();
      return peak;
    },
  };
}

export interface PortalMetrics {
  /** p99 of the event-loop delay since the previous scrape, ms. */
  eventLoopP99Ms: number | null;
  eventLoopMaxMs: number | null;
  rssMb: number | null;
  /** V8's heap in use and the memory outside it that JavaScript objects hold (Buffers), MiB. */
  heapUsedMb: number | null;
  externalMb: number | null;
}

/** Reads /metrics; null when it did not answer within `timeoutMs`. */
export async function scrapeMetrics(url: string, timeoutMs = 120_000): Promise<PortalMetrics | null> {
  try {
    const response = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` }, signal: AbortSignal.timeout(timeoutMs) });
    if (!response.ok) throw new Error(`/metrics answered ${response.status}`);
    const text = await response.text();
    const value = (name: string) => {
      const match = new RegExp(`^${name}(?:\\{[^}]*\\})? ([0-9.eE+-]+)$`, 'm').exec(text);
      return match ? Number(match[1]) : null;
    };
    const ms = (v: number | null) => (v == null ? null : v * 1000);
    const mb = (v: number | null) => (v == null ? null : v / 1024 / 1024);
    return {
      eventLoopP99Ms: ms(value('nodejs_eventloop_lag_p99_seconds')),
      eventLoopMaxMs: ms(value('nodejs_eventloop_lag_max_seconds')),
      rssMb: mb(value('process_resident_memory_bytes')),
      heapUsedMb: mb(value('nodejs_heap_size_used_bytes')),
      externalMb: mb(value('nodejs_external_memory_bytes')),
    };
  } catch {
    return null;
  }
}

/**
 * CPU time (user + system) a process used so far, in seconds, from /proc (Linux); null elsewhere.
 * Also the bench's CPU per answer, the figure that moves least with what else the machine runs.
 */
export function cpuSeconds(pid: number): number | null {
  try {
    // Fields after the parenthesised name: state is the 3rd field, utime the 14th, stime the 15th.
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /s, '').split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return null;
  }
}

/**
 * Waits until the process is idle: under 5 % of a core for three half-seconds in a row, `busy`
 * (the database's own work) saying nothing runs and /healthz answering within 250 ms. A load that stops leaves requests the portal
 * already read; they run on and would be counted against the next run.
 */
/** CPU seconds in half a second below which the portal counts as idle: 5 % of a core, or 30 % while V8's profiler
 * samples it (BENCH_CPU_PROF=1), which alone keeps an idle portal above 5 %. */
const IDLE_CPU_S = process.env.BENCH_CPU_PROF === '1' ? 0.15 : 0.025;

export async function waitIdle(pid: number, url: string, busy: () => Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = performance.now() + timeoutMs;
  let quiet = 0;
  while (performance.now() < deadline) {
    const before = cpuSeconds(pid);
    await new Promise((r) => setTimeout(r, 500));
    const after = cpuSeconds(pid);
    const idle = (before == null || after == null || after - before < IDLE_CPU_S) && !(await busy()) && (await answers(`${url}/healthz`, 250));
    // Three quiet half-seconds in a row: on a machine shared with other work one can be luck.
    quiet = idle ? quiet + 1 : 0;
    if (quiet >= 3) return true;
  }
  return false;
}
