/**
 * The database lost while the portal runs (issue 31 item 3), through a TCP proxy in front of
 * PostgreSQL (test/support/tcp-proxy.ts), the portal's database opened as main.ts opens it (the
 * limits of config.ts, at their defaults): stopped, the API answers 503 with Retry-After at once;
 * frozen, within seconds, not forty; either way one warn line when it goes and one when it comes
 * back, no stack per request, the notification jobs wait quietly, and everything works again
 * without a restart. SQLite is a file of this process: what it can meet is another process's lock,
 * which its busy timeout waits 5 s for, then 503 too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../server/app';
import { loadConfig } from '../../server/config';
import { databaseHealth, openDatabase, type Db } from '../../server/db/database';
import { withoutStatementLimits } from '../../server/db/pg-pool';
import { migrateToLatest } from '../../server/db/migrate';
import { seedDemoData } from '../../server/demo/seed';
import { createTestDatabase, testDialects, type TestDatabase } from '../support/databases';
import { signToken } from '../support/tokens';
import { tcpProxy, type TcpProxy } from '../support/tcp-proxy';

const postgres = (await testDialects()).includes('postgres');

interface Line { level: number; msg: string; err?: unknown; stack?: unknown }

async function until(check: () => boolean | Promise<boolean>, timeoutMs: number, what: string) {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${what} did not happen within ${timeoutMs} ms`);
}

describe.runIf(postgres)('a PostgreSQL lost while the portal runs', () => {
  let database: TestDatabase;
  let proxy: TcpProxy;
  let db: Db;
  let app: FastifyInstance;
  const lines: Line[] = [];
  let headers: Record<string, string>;
  let northwind: string;
  const config = loadConfig({ NODE_ENV: 'test', PORT: '8080', PUBLIC_URL: 'http://localhost:8080', LOG_LEVEL: 'warn', NOTIFICATIONS: 'on' });

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    await seedDemoData(database.db, new Date());
    northwind = (await database.db.selectFrom('organizations').select('organization_id').where('organization_name', 'like', 'Northwind%').executeTakeFirstOrThrow()).organization_id;
    const token = await signToken(database.db, { email: 'issuer@northwind.example', email_verified: true });
    headers = { authorization: `Bearer ${token}`, 'x-requested-with': 'JavaScript' };
    proxy = await tcpProxy(Number(new URL(database.url!).port || 5432));
    await proxy.start();
    const url = new URL(database.url!);
    url.port = String(proxy.port);
    // As main.ts opens it: with the configured limits.
    db = openDatabase({ databaseUrl: url.toString(), timeouts: config.databaseTimeouts });
    app = await buildApp({ config, db, logStream: { write: (line) => lines.push(JSON.parse(line)) } });
    await app.ready();
  }, 60_000);

  afterAll(async () => {
    proxy?.thaw();
    await proxy?.start();
    await app?.close();
    await db?.destroy();
    await proxy?.stop();
    await database?.drop();
  });

  const organizations = () => app.inject({ url: '/api/organizations', headers });
  /** Each test starts on a database that answers, whatever the one before did to it. */
  const answering = async () => {
    proxy.thaw();
    await proxy.start();
    await until(async () => (await organizations()).statusCode === 200, 20_000, 'an answering database');
    await until(() => !databaseHealth(db).down, 5_000, 'the end of an outage');
  };
  const since = (from: number) => lines.slice(from);
  /** What the log said at warn and above from `from` on, and whether any of it carried a stack. */
  const warned = (from: number) => since(from).filter((l) => l.level >= 40);
  const unreachable = (from: number) => warned(from).filter((l) => /^database unreachable: /.test(l.msg));
  const reachable = (from: number) => warned(from).filter((l) => /^database reachable again after \d+ s$/.test(l.msg));

  it('answers 503 with Retry-After at once while it is stopped, says so once, waits quietly in the jobs, and recovers without a restart', async () => {
    await answering();
    const from = lines.length;

    await proxy.stop();
    for (let i = 0; i < 5; i++) {
      const started = performance.now();
      const res = await organizations();
      expect(performance.now() - started).toBeLessThan(2_000);
      expect(res.statusCode).toBe(503);
      expect(res.headers['retry-after']).toBe('5');
      expect(res.json()).toEqual({ message: 'The portal cannot reach its database at the moment. Please try again in a moment.', severity: 'ERROR' });
    }
    // A write is refused the same way, and nothing of it is there afterwards.
    const request = { method: 'POST' as const, url: `/api/organizations/${northwind}/licenses`, headers, payload: { license_name: 'Written during the outage' } };
    expect((await app.inject(request)).statusCode).toBe(503);
    expect((await app.inject('/readyz')).statusCode).toBe(503);
    // The dispatcher and the webhook sender (every 2 s) try several times meanwhile: no line of theirs.
    await new Promise((r) => setTimeout(r, 7_000));
    expect(unreachable(from)).toHaveLength(1);
    expect(warned(from).map((l) => l.msg)).toEqual([unreachable(from)[0].msg]);
    expect(since(from).filter((l) => l.err !== undefined || l.stack !== undefined)).toEqual([]);

    await proxy.start();
    expect((await organizations()).statusCode).toBe(200);
    expect((await app.inject('/readyz')).statusCode).toBe(200);
    await until(() => reachable(from).length > 0, 5_000, 'the line of the return');
    const created = await app.inject({ ...request, payload: { license_name: 'Written after the outage' } });
    expect(created.statusCode).toBe(201);
    const names = await database.db.selectFrom('licenses').select('license_name').where('license_name', 'like', 'Written %').execute();
    expect(names.map((n) => n.license_name)).toEqual(['Written after the outage']);
    // The dispatcher runs again by itself: the request's event is fanned out.
    await until(async () => {
      const events = await database.db.selectFrom('events').select('date_dispatched').where('subject_id', '=', created.json().license_id).execute();
      return events.length === 1 && events[0].date_dispatched !== null;
    }, 40_000, 'the dispatch of an event after the outage');
    expect(unreachable(from)).toHaveLength(1);
    expect(reachable(from)).toHaveLength(1);
    expect(warned(from)).toHaveLength(2);
  }, 90_000);

  it('answers 503 within seconds while it is frozen, not after forty, says so once, and answers again when it thaws', async () => {
    await answering();
    const from = lines.length;

    proxy.freeze();
    const started = performance.now();
    const answers = await Promise.all([organizations(), organizations(), app.inject({ url: `/api/organizations/${northwind}/certificates`, headers })]);
    const seconds = (performance.now() - started) / 1000;
    expect(answers.map((a) => a.statusCode)).toEqual([503, 503, 503]);
    for (const a of answers) expect(a.headers['retry-after']).toBe('5');
    // The defaults: a statement is given up 6 s after it was sent (statement timeout 5 s + 1 s), a connection after 5 s.
    expect(seconds).toBeLessThan(8);
    const ready = performance.now();
    expect((await app.inject('/readyz')).statusCode).toBe(503);
    expect(performance.now() - ready).toBeLessThan(3_000);
    // Whichever limit came first: no statement answered while every connection waited, a statement's, a connection's;
    // or, on a loaded machine, a query sent on a connection whose connect had just timed out (pg names that error so).
    expect(warned(from).map((l) => l.msg)).toEqual([
      expect.stringMatching(/^database unreachable: (timeout exceeded when trying to connect|the database did not answer within 6 s|Connection terminated due to connection timeout|Client has encountered a connection error and is not queryable);/),
    ]);

    proxy.thaw();
    await until(async () => (await organizations()).statusCode === 200, 15_000, 'an answer after the thaw');
    await until(() => reachable(from).length > 0, 5_000, 'the line of the return');
    expect(unreachable(from)).toHaveLength(1);
    expect(reachable(from)).toHaveLength(1);
    expect(since(from).filter((l) => l.level >= 50)).toEqual([]);
  }, 60_000);

  it('ends a statement and an idle transaction at their limits, keeps the connection usable, and lifts the limits for migrations', async () => {
    const limited = openDatabase({ databaseUrl: database.url, timeouts: { connectMs: 2_000, statementMs: 300, idleInTransactionMs: 300 } });
    try {
      await expect(sql`select pg_sleep(1)`.execute(limited)).rejects.toMatchObject({ code: '57014' });
      // An idle transaction is ended by the server: the statement after the pause fails, the pool goes on.
      await expect(limited.transaction().execute(async (tx) => {
        await sql`select 1`.execute(tx);
        await new Promise((r) => setTimeout(r, 1_000));
        await sql`select 1`.execute(tx);
      })).rejects.toThrow();
      expect((await sql<{ one: number }>`select 1 as one`.execute(limited)).rows).toEqual([{ one: 1 }]);
      // Migrations run without them (db/migrate.ts): an index on a large table takes what it takes.
      await expect(withoutStatementLimits(() => sql`select pg_sleep(0.6)`.execute(limited))).resolves.toBeDefined();
    } finally {
      await limited.destroy();
    }
  }, 30_000);
});

describe('an SQLite database locked by another process', () => {
  it('waits its busy timeout, then answers 503 with Retry-After and says so once, and writes again once the lock is gone', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-busy-'));
    const file = path.join(dir, 'portal.db');
    const db = openDatabase({ sqliteFile: file });
    await migrateToLatest(db);
    await seedDemoData(db, new Date());
    const lines: Line[] = [];
    const app = await buildApp({ config: loadConfig({ NODE_ENV: 'test', PORT: '8080', PUBLIC_URL: 'http://localhost:8080', LOG_LEVEL: 'warn' }), db, logStream: { write: (line) => lines.push(JSON.parse(line)) } });
    const other = new SQLite(file);
    try {
      await app.ready();
      const northwind = (await db.selectFrom('organizations').select('organization_id').where('organization_name', 'like', 'Northwind%').executeTakeFirstOrThrow()).organization_id;
      const headers = { authorization: `Bearer ${await signToken(db, { email: 'issuer@northwind.example', email_verified: true })}` };
      const request = (name: string) => app.inject({ method: 'POST', url: `/api/organizations/${northwind}/licenses`, headers, payload: { license_name: name } });
      // Another process (the sqlite3 shell, a backup that writes) holds the write lock.
      other.exec('begin immediate');
      const locked = await request('Written while locked');
      expect(locked.statusCode).toBe(503);
      expect(locked.headers['retry-after']).toBe('5');
      expect(locked.json()).toEqual({ message: 'The database is too busy to answer right now. Please try again in a moment.', severity: 'ERROR' });
      expect(lines.filter((l) => l.level >= 40).map((l) => l.msg)).toEqual([expect.stringMatching(/^database too slow: database is locked; a request answers 503/)]);
      expect(lines.filter((l) => l.err !== undefined)).toEqual([]);
      other.exec('rollback');
      expect((await request('Written after the lock')).statusCode).toBe(201);
      expect((await db.selectFrom('licenses').select('license_name').where('license_name', 'like', 'Written %').execute()).map((l) => l.license_name)).toEqual(['Written after the lock']);
    } finally {
      other.close();
      await app.close();
      await db.destroy();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);
});
