/**
 * The portal's PostgreSQL connections run without JIT compilation (db/pg-pool.ts): the admin overview's license
 * counts spent most of their time compiling. A DATABASE_URL that sets its own `options` keeps them.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from './database';
import { createTestDatabase, testDialects, type TestDatabase } from '../../test/support/databases';

const postgres = (await testDialects()).includes('postgres');

describe.runIf(postgres)('the PostgreSQL connections', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase('postgres');
  });
  afterAll(() => database?.drop());
  const jit = async (db: Db) => (await sql<{ jit: string }>`show jit`.execute(db)).rows[0].jit;

  it('compile no statement (jit off), unless the database URL says otherwise', async () => {
    expect(await jit(database.db)).toBe('off');
    const url = new URL(database.url!);
    url.searchParams.set('options', '-c jit=on');
    const own = openDatabase({ databaseUrl: url.toString(), poolSize: 1 });
    try {
      expect(await jit(own)).toBe('on');
    } finally {
      await own.destroy();
    }
  });
});
