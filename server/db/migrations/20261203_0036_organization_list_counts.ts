/**
 * The number of each organization's certificates and licenses, beside its version in `organization_counters`, kept
 * by triggers in the writing transaction, so an unfiltered list's total is read, not counted (certificates and
 * licenses repositories): the large organization's first page counted its 20,000 certificates in the list's index
 * for every answer (0.6 ms with the index in SQLite's page cache, 2 ms without; at ten times the size ten times
 * that), where the page itself reads 100. The row is the one the version triggers (migration 0022) lock already,
 * so no writer waits on another organization's.
 */
import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../database';

/** The tables counted, each in the counters' column of its own name. */
const COUNTED = ['certificates', 'licenses'] as const;

/** Adds `by` to the count `column` of organization `id` (an SQL expression), making the row when it has none. */
const add = (column: string, id: string, by: 1 | -1) => `insert into organization_counters (organization_id, journal_records, version, ${column})
  select ${id}, 0, 0, ${by} where ${id} is not null
  on conflict (organization_id) do update set ${column} = organization_counters.${column} + ${by}`;

export async function up(db: Kysely<any>): Promise<void> {
  for (const table of COUNTED) {
    await db.schema.alterTable('organization_counters').addColumn(table, 'integer', (c) => c.notNull().defaultTo(0)).execute();
    await sql.raw(`update organization_counters set ${table} = (select count(*) from ${table} t where t.organization_id = organization_counters.organization_id)`).execute(db);
  }
  if (isPostgres(db)) {
    for (const table of COUNTED) {
      await sql.raw(`create function count_${table}() returns trigger language plpgsql as $$
        begin
          if tg_op <> 'INSERT' then ${add(table, 'old.organization_id', -1)}; end if;
          if tg_op <> 'DELETE' then ${add(table, 'new.organization_id', 1)}; end if;
          return null;
        end $$`).execute(db);
      // After the version's trigger (PostgreSQL fires a table's triggers in name order), on the row it has locked.
      await sql.raw(`create trigger ${table}_version_count after insert or delete on ${table}
        for each row execute function count_${table}()`).execute(db);
      await sql.raw(`create trigger ${table}_version_count_moved after update of organization_id on ${table}
        for each row when (old.organization_id is distinct from new.organization_id) execute function count_${table}()`).execute(db);
    }
    return;
  }
  for (const table of COUNTED) {
    await sql.raw(`create trigger ${table}_insert_count after insert on ${table} begin ${add(table, 'new.organization_id', 1)}; end`).execute(db);
    await sql.raw(`create trigger ${table}_delete_count after delete on ${table} begin ${add(table, 'old.organization_id', -1)}; end`).execute(db);
    await sql.raw(`create trigger ${table}_update_count after update of organization_id on ${table}
      when old.organization_id is not new.organization_id
      begin ${add(table, 'old.organization_id', -1)}; ${add(table, 'new.organization_id', 1)}; end`).execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    for (const table of COUNTED) {
      await sql.raw(`drop trigger if exists ${table}_version_count on ${table}`).execute(db);
      await sql.raw(`drop trigger if exists ${table}_version_count_moved on ${table}`).execute(db);
      await sql.raw(`drop function if exists count_${table}()`).execute(db);
      await db.schema.alterTable('organization_counters').dropColumn(table).execute();
    }
    return;
  }
  for (const table of COUNTED) {
    for (const event of ['insert', 'delete', 'update']) await sql.raw(`drop trigger if exists ${table}_${event}_count`).execute(db);
  }
  // SQLite reads every trigger again to drop a column, and refuses the archive's upsert alias (migration 0015):
  // the table is copied out and made again in its former shape (migration 0022's).
  await sql`create table organization_counters_0036 as select organization_id, journal_records, version from organization_counters`.execute(db);
  await db.schema.dropTable('organization_counters').execute();
  await db.schema.createTable('organization_counters')
    .addColumn('organization_id', 'text', (c) => c.primaryKey())
    .addColumn('journal_records', 'integer', (c) => c.notNull())
    .addColumn('version', 'bigint', (c) => c.notNull())
    .execute();
  await sql`insert into organization_counters select * from organization_counters_0036`.execute(db);
  await db.schema.dropTable('organization_counters_0036').execute();
}
