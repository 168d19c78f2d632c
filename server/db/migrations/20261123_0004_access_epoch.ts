/**
 * The access epoch: one number that every change of who may do what moves on. Instances cache
 * verified actors and organization ancestry per epoch and read this one row per request, so a ban,
 * a role change or a moved organization takes effect at the very next call on every instance
 * (docs/decisions.md "Access cache").
 *
 * Triggers move it, not the services: every write to members, role_assignments or organizations,
 * whoever makes it (a service, a migration, an operator with psql), invalidates the caches.
 */
import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../database';

const TABLES = ['members', 'role_assignments', 'organizations'] as const;
const EVENTS = ['insert', 'update', 'delete'] as const;

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createTable('access_epoch').addColumn('id', 'integer', (c) => c.primaryKey()).addColumn('epoch', 'bigint', (c) => c.notNull()).execute();
  await db.insertInto('access_epoch').values({ id: 1, epoch: 1 }).execute();
  if (isPostgres(db)) {
    await sql`create function bump_access_epoch() returns trigger language plpgsql as $$
      begin update access_epoch set epoch = epoch + 1 where id = 1; return null; end $$`.execute(db);
    for (const table of TABLES) {
      // Once per statement: a bulk change moves it once.
      await sql`create trigger ${sql.raw(`${table}_access_epoch`)} after insert or update or delete on ${sql.table(table)}
        for each statement execute function bump_access_epoch()`.execute(db);
    }
    return;
  }
  for (const table of TABLES) {
    for (const event of EVENTS) {
      await sql`create trigger ${sql.raw(`${table}_${event}_access_epoch`)} after ${sql.raw(event)} on ${sql.table(table)}
        begin update access_epoch set epoch = epoch + 1 where id = 1; end`.execute(db);
    }
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    for (const table of TABLES) await sql`drop trigger if exists ${sql.raw(`${table}_access_epoch`)} on ${sql.table(table)}`.execute(db);
    await sql`drop function if exists bump_access_epoch()`.execute(db);
  } else {
    for (const table of TABLES) for (const event of EVENTS) await sql`drop trigger if exists ${sql.raw(`${table}_${event}_access_epoch`)}`.execute(db);
  }
  await db.schema.dropTable('access_epoch').execute();
}
