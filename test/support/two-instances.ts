/**
 * Two portals on one PostgreSQL database, each with its own pool: what two instances behind a balancer are. A change
 * made through one must hold at the other's next call, and a scheduled end must be journaled once with both scanning.
 * Only where PostgreSQL runs: `describe.runIf(dialects.includes('postgres'))`.
 */
import { afterAll, beforeAll } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../server/app';
import { openDatabase, type Db } from '../../server/db/database';
import { createTestDatabase, type TestDatabase } from './databases';
import { TEST_CONFIG, TestClock, signToken } from './tokens';

export interface TwoInstances<T> {
  /** The first instance's database (its pool), for factories and checks. */
  database: TestDatabase;
  /** The second instance's own pool on the same database. */
  second: Db;
  a: FastifyInstance;
  b: FastifyInstance;
  /** The instances' clock (when asked for), which the test moves; both read it. */
  clock: TestClock;
  /** What `prepare` made on the empty database before the instances started. */
  data: T;
  /** The headers of a signed-in person. */
  as: (email: string) => Promise<{ authorization: string }>;
}

/**
 * Starts the two before the file's tests and closes them after. `prepare` makes the records the tests start from;
 * `clock: true` gives both instances the test clock (else they run on real time).
 */
export function useTwoInstances<T>(prepare: (db: Db, clock: TestClock) => Promise<T>, options: { clock?: boolean } = {}): TwoInstances<T> {
  const two = { clock: new TestClock() } as TwoInstances<T>;
  const now = options.clock ? two.clock.now : undefined;
  two.as = async (email) => ({ authorization: `Bearer ${await signToken(two.database.db, { email, email_verified: true })}` });
  beforeAll(async () => {
    two.database = await createTestDatabase('postgres');
    two.data = await prepare(two.database.db, two.clock);
    two.second = openDatabase({ databaseUrl: two.database.url });
    two.a = await buildApp({ config: TEST_CONFIG, db: two.database.db, now, logger: false });
    two.b = await buildApp({ config: TEST_CONFIG, db: two.second, now, logger: false });
  });
  afterAll(async () => {
    await two.a?.close();
    await two.b?.close();
    await two.second?.destroy();
    await two.database?.drop();
  });
  return two;
}
