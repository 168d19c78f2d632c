/**
 * Portals of a spec's own, besides the shared one of playwright.config.ts: a throw-away PostgreSQL
 * database and portal processes on it (node --import tsx server/main.ts, as the shared one runs).
 * PostgreSQL is optional as in the API tests (test/support/databases.ts): without it such a spec is
 * skipped, except under CI=true, where it fails.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

const root = path.resolve(import.meta.dirname, '..');

/** The server to make throw-away databases on, as the API tests name it; its database itself is never written. */
const POSTGRES_ADMIN_URL = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

async function adminQuery(text: string) {
  const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL, connectionTimeoutMillis: 2000 });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

/** Whether PostgreSQL answers; under CI=true its absence is an error, not a reason to skip. */
export async function postgresReachable(): Promise<boolean> {
  try {
    await adminQuery('select 1');
    return true;
  } catch (error) {
    if (process.env.CI === 'true') throw new Error(`CI=true but PostgreSQL at ${POSTGRES_ADMIN_URL} is not reachable: ${(error as Error).message}`);
    return false;
  }
}

export interface Database {
  url: string;
  /** A query on it, for what only the database can tell. */
  query<R extends pg.QueryResultRow>(text: string): Promise<R[]>;
  drop(): Promise<void>;
}

/** A fresh, empty database (`<prefix>_<random>`): the portals started on it migrate and seed it. */
export async function freshDatabase(prefix: string): Promise<Database> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  await adminQuery(`create database ${name}`);
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async query<R extends pg.QueryResultRow>(text: string) {
      const client = new pg.Client({ connectionString: url.toString() });
      await client.connect();
      try {
        return (await client.query<R>(text)).rows;
      } finally {
        await client.end();
      }
    },
    drop: () => adminQuery(`drop database if exists ${name} with (force)`),
  };
}

export interface Portal {
  /** Where it listens, for requests that bypass the proxy. */
  url: string;
  /** Its log lines (pino JSON) at LOG_LEVEL warn and above. */
  readonly lines: ReadonlyArray<{ level: number; msg: string }>;
  /** Everything it wrote, for a failure message. */
  output(): string;
  stop(): Promise<void>;
}

/** Starts a portal on 127.0.0.1:`port` with these settings (besides a data folder of its own) and waits until /readyz says ready. */
export async function startPortal(port: number, env: Record<string, string>, readyWithinMs = 90_000): Promise<Portal> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-e2e-instance-'));
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: root,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, NODE_ENV: 'development', LOG_LEVEL: 'warn', WEB_ROOT: process.env.WEB_ROOT ?? 'dist/web', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  const lines: Array<{ level: number; msg: string }> = [];
  let pending = '';
  child.stdout.on('data', (chunk: Buffer) => {
    text += chunk;
    const complete = (pending + chunk).split('\n');
    pending = complete.pop()!;
    for (const line of complete) {
      try {
        lines.push(JSON.parse(line));
      } catch {
        // not a log line
      }
    }
  });
  child.stderr.on('data', (chunk: Buffer) => (text += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const portal: Portal = {
    url,
    lines,
    output: () => text,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const killed = setTimeout(() => child.kill('SIGKILL'), 10_000);
        await exited;
        clearTimeout(killed);
      }
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
  const until = Date.now() + readyWithinMs;
  while (Date.now() < until) {
    if (child.exitCode !== null) break;
    const ready = await fetch(`${url}/readyz`).then((r) => r.ok, () => false);
    if (ready) return portal;
    await new Promise((r) => setTimeout(r, 250));
  }
  await portal.stop();
  throw new Error(`The portal on port ${port} did not become ready within ${readyWithinMs} ms:\n${text.slice(-3000)}`);
}
