/**
 * An app on a real database with a clock the test moves, and bearer tokens signed with the
 * built-in provider's own key (the same verification path as a real sign-in). The database holds
 * the demo seed unless `demo: false`: then it is empty, and the tests make what they need with
 * the factories (test/support/factories.ts).
 */
import { afterAll, beforeAll, beforeEach } from 'vitest';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../../server/app';
import { loadConfig } from '../../server/config';
import { START, TEST_CONFIG, TEST_ENV, TestClock, signToken } from './tokens';
import type { Db } from '../../server/db/database';
import { seedDemoData } from '../../server/demo/seed';
import { createTestDatabase, type Dialect, type TestDatabase } from './databases';

export interface TestApp {
  app: FastifyInstance;
  db: Db;
  clock: TestClock;
  /** Ids of the demo organizations by key: operator, northwind, contoso, fabrikam (empty without the demo seed). */
  org: Record<string, string>;
  /** Headers of a signed-in person. */
  as(email: string, claims?: Record<string, unknown>): Promise<Record<string, string>>;
  /** `app.inject` as that person (or anonymous with `as: null`). */
  call(as: string | null, options: InjectOptions): Promise<LightMyRequestResponse>;
  /**
   * Closes the app and builds another on the same database and clock: what a restarted process
   * holds (no master secret in memory, no kept pages). `t.app` is the new one afterwards.
   */
  restart(): Promise<void>;
}

export interface TestAppOptions {
  /** Seed the demo data (server/demo/seed.ts); the default, for the tests whose subject it is. */
  demo?: boolean;
  /** Settings besides TEST_CONFIG's, as environment variables (e.g. WEBHOOK_ALLOW_PRIVATE). */
  env?: Record<string, string>;
}

/**
 * Registers the hooks for an app on the dialect, one database per describe; use inside a describe.
 * Every test starts at START on the clock, whatever the test before it did to the clock.
 */
export function useTestApp(dialect: Dialect, options: TestAppOptions = {}): TestApp {
  let database: TestDatabase;
  const clock = new TestClock();
  const t = { clock, org: {} as Record<string, string> } as TestApp;
  const start = async () => {
    const config = options.env ? loadConfig({ ...TEST_ENV, ...options.env }) : TEST_CONFIG;
    t.app = await buildApp({ config, db: t.db, now: clock.now, logger: false });
    await t.app.ready();
  };

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    t.db = database.db;
    if (options.demo ?? true) {
      await seedDemoData(t.db, clock.now());
      const orgs = await t.db.selectFrom('organizations').select(['organization_id', 'organization_name']).execute();
      for (const o of orgs) t.org[o.organization_name.split(' ')[0].toLowerCase()] = o.organization_id;
    }
    await start();
  });

  beforeEach(() => {
    clock.set(START);
  });

  afterAll(async () => {
    await t.app?.close();
    await database?.drop();
  });

  t.as = async (email, claims = {}) => {
    // Tokens are signed with the real clock: jose checks `exp` against it, not the test clock.
    const token = await signToken(t.db, { email, email_verified: true, name: email.split('@')[0], ...claims });
    return { authorization: `Bearer ${token}`, 'x-requested-with': 'JavaScript' };
  };
  t.call = async (as, options) => {
    const headers = { ...(as ? await t.as(as) : {}), ...(options.headers ?? {}) };
    return t.app.inject({ ...options, headers });
  };
  t.restart = async () => {
    await t.app.close();
    await start();
  };
  return t;
}
