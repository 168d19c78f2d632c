import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compiledOnce } from './compiled';
import type { Db, Queryable } from './database';
import { createTestDatabase, testDialects, type TestDatabase } from '../../test/support/databases';

const dialects = await testDialects();

describe.each(dialects)('compiledOnce on %s', (dialect) => {
  let database: TestDatabase;
  let db: Db;
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    db = database.db;
    for (const [id, name] of [['o1', 'One'], ['o2', 'Two'], ['o3', 'Three']]) {
      await db.insertInto('organizations').values({ organization_id: id, organization_name: name, organization_role: 'CUSTOMER', date_created: '2026-01-0' + id[1] + 'T00:00:00.000Z' }).execute();
    }
  });
  afterAll(() => database?.drop());

  const named = compiledOnce((q: Queryable, byName: boolean, v: { ids: string[]; after: string }) => {
    let query = q.selectFrom('organizations').select('organization_name').where('organization_id', 'in', v.ids).where('date_created', '>', v.after);
    if (byName) query = query.orderBy('organization_name');
    return query.orderBy('organization_id');
  });

  it('runs the query built once with each call\'s values, per shape and list length', async () => {
    const names = async (byName: boolean, ids: string[], after: string) => (await named(db, byName, { ids, after })).map((r) => r.organization_name);
    expect(await names(false, ['o1', 'o2'], '2000-01-01')).toEqual(['One', 'Two']);
    expect(await names(false, ['o2', 'o3'], '2026-01-02T12:00:00.000Z')).toEqual(['Three']);
    expect(await names(true, ['o1', 'o2', 'o3'], '2000-01-01')).toEqual(['One', 'Three', 'Two']);
    expect(await names(false, ['o3'], '2000-01-01')).toEqual(['Three']);
    await db.transaction().execute(async (tx) => {
      expect((await named(tx, true, { ids: ['o1', 'o3'], after: '2000-01-01' })).map((r) => r.organization_name)).toEqual(['One', 'Three']);
    });
  });

  it('refuses, outside production, a query that builds on a value instead of taking it', async () => {
    const derived = compiledOnce((q: Queryable, _shape: null, v: { prefix: string }) =>
      q.selectFrom('organizations').select('organization_name').where('organization_name', 'like', sql<string>`${`${v.prefix}%`}`));
    await expect(derived(db, null, { prefix: 'T' })).rejects.toThrow(/differs from its kept template/);
  });
});
