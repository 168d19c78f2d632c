/**
 * Epoch rows moved on by database triggers (migrations 0004 and 0007): a table `name` with one row
 * (id 1, epoch) whose epoch every insert, update or delete of `tables` adds one to, whoever writes.
 * Caches keyed by an epoch are then right on every instance sharing the database.
 */
import { sql, type Kysely } from 'kysely';
import { isPostgres } from './database';

const EVENTS = ['insert', 'update', 'delete'] as const;

export async function createEpoch(db: Kysely<any>, name: string, tables: readonly string[]): Promise<void> {
  await db.schema.createTable(name).addColumn('id', 'integer', (c) => c.primaryKey()).addColumn('epoch', 'bigint', (c) => c.notNull()).execute();
  await db.insertInto(name).values({ id: 1, epoch: 1 }).execute();
  if (isPostgres(db)) {
    await sql`create function ${sql.raw(`bump_${name}`)}() returns trigger language plpgsql as ${sql.lit(
      `begin update ${name} set epoch = epoch + 1 where id = 1; return null; end`,
    )}`.execute(db);
  }
  await addEpochTriggers(db, name, tables);
}

/** Makes every write to `tables` move the existing epoch `name` on as well. */
export async function addEpochTriggers(db: Kysely<any>, name: string, tables: readonly string[]): Promise<void> {
  if (isPostgres(db)) {
    for (const table of tables) {
      // Once per statement: a bulk change moves it once.
      await sql`create trigger ${sql.raw(`${table}_${name}`)} after insert or update or delete on ${sql.table(table)}
        for each statement execute function ${sql.raw(`bump_${name}`)}()`.execute(db);
    }
    return;
  }
  for (const table of tables) {
    for (const event of EVENTS) {
      await sql`create trigger ${sql.raw(`${table}_${event}_${name}`)} after ${sql.raw(event)} on ${sql.table(table)}
        begin update ${sql.table(name)} set epoch = epoch + 1 where id = 1; end`.execute(db);
    }
  }
}

export async function dropEpochTriggers(db: Kysely<any>, name: string, tables: readonly string[]): Promise<void> {
  if (isPostgres(db)) {
    for (const table of tables) await sql`drop trigger if exists ${sql.raw(`${table}_${name}`)} on ${sql.table(table)}`.execute(db);
  } else {
    for (const table of tables) for (const event of EVENTS) await sql`drop trigger if exists ${sql.raw(`${table}_${event}_${name}`)}`.execute(db);
  }
}

export async function dropEpoch(db: Kysely<any>, name: string, tables: readonly string[]): Promise<void> {
  await dropEpochTriggers(db, name, tables);
  if (isPostgres(db)) await sql`drop function if exists ${sql.raw(`bump_${name}`)}()`.execute(db);
  await db.schema.dropTable(name).execute();
}
