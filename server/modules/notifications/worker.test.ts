/**
 * The notification jobs' loop (worker.ts, issue 31 item 3): a job that fails is tried again with
 * backoff, not every few seconds; it says so once when it starts failing and once when it runs
 * again; a failure of the database is left to the database's own line (db/health.ts). The loop
 * does not depend on the engine: SQLite serves.
 */
import { afterEach, beforeAll, afterAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../app';
import { loadConfig } from '../../config';
import { databaseHealth } from '../../db/database';
import { createTestDatabase, type TestDatabase } from '../../../test/support/databases';
import { registerNotificationWorker } from './worker';

const config = loadConfig({ NODE_ENV: 'test', PORT: '8080', PUBLIC_URL: 'http://localhost:8080', LOG_LEVEL: 'warn' });

let database: TestDatabase;
let app: FastifyInstance | undefined;
beforeAll(async () => {
  database = await createTestDatabase('sqlite');
});
afterEach(async () => {
  await app?.close();
  app = undefined;
});
afterAll(async () => {
  await database?.drop();
});

/** An app running one job that fails `failures` times (with what `fail` makes), then runs; its warn lines and run times. */
async function running(failures: number, fail: () => Error) {
  const lines: string[] = [];
  const runs: number[] = [];
  app = await buildApp({ config, db: database.db, logStream: { write: (line) => lines.push(JSON.parse(line).msg) } });
  registerNotificationWorker(app, () => [{
    name: 'test job', everyMs: 100,
    run: async () => {
      runs.push(performance.now());
      if (runs.length <= failures) throw fail();
    },
  }]);
  await app.ready();
  return { lines, runs };
}

const until = async (check: () => boolean, ms: number) => {
  for (const end = Date.now() + ms; Date.now() < end && !check();) await new Promise((r) => setTimeout(r, 20));
  expect(check()).toBe(true);
};

describe('the notification jobs', () => {
  it('try a failing job again with backoff, and say once that it fails and once that it runs again', async () => {
    const { lines, runs } = await running(2, () => new Error('the receiver said no'));
    await until(() => runs.length >= 4, 15_000);
    // 1 s, then 2 s after the failures (±20 %), not the job's own 100 ms; then its own pace again.
    const gaps = runs.slice(1).map((at, i) => at - runs[i]);
    expect(gaps[0]).toBeGreaterThanOrEqual(780);
    expect(gaps[1]).toBeGreaterThanOrEqual(1_580);
    expect(gaps[2]).toBeLessThan(500);
    expect(lines).toEqual([
      'notifications: the test job failed: the receiver said no; it is tried again with backoff (at most 30 s apart) until it runs',
      'notifications: the test job runs again after 2 failed attempts',
    ]);
  }, 20_000);

  it('leave a lost database to its own line', async () => {
    const health = databaseHealth(database.db);
    const lost = () => {
      const error = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
      health.failed(error);
      return error;
    };
    const { lines, runs } = await running(2, lost);
    await until(() => runs.length >= 3, 10_000);
    // The database answers again: its statement, not the job, says so.
    health.answered();
    expect(lines.filter((l) => l.startsWith('notifications:'))).toEqual([]);
    expect(lines).toEqual([expect.stringMatching(/^database unreachable: connect ECONNREFUSED/), expect.stringMatching(/^database reachable again after \d+ s$/)]);
  }, 20_000);
});
