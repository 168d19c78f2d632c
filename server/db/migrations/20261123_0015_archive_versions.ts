/**
 * Per organization, a version that every insert, update or delete of one of its certificates moves
 * on, whoever writes: a rebuild of the certificate archive reads these 5,000 numbers and re-reads
 * only the organizations whose version moved since its last build, instead of the 80,000 rows of
 * the whole selection (docs/decisions.md "Export cache"). A certificate moved to another
 * organization moves both. No row yet is version 0.
 */
import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../database';

const BUMP = (rows: string) =>
  `insert into archive_versions as v (organization_id, version) ${rows} on conflict (organization_id) do update set version = v.version + 1;`;

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('archive_versions')
    .addColumn('organization_id', 'text', (c) => c.primaryKey())
    .addColumn('version', 'bigint', (c) => c.notNull())
    .execute();
  if (isPostgres(db)) {
    // Once per statement, from its transition tables: a bulk load moves each organization once. In
    // organization order, so two statements touching the same organizations lock them in one order.
    const distinct = (from: string) => `select organization_id, 1 from (${from}) changed group by organization_id order by organization_id`;
    await sql`create function bump_archive_versions() returns trigger language plpgsql as ${sql.lit(
      `begin
        if tg_op = 'INSERT' then ${BUMP(distinct('select organization_id from new_rows'))}
        elsif tg_op = 'DELETE' then ${BUMP(distinct('select organization_id from old_rows'))}
        else ${BUMP(distinct('select organization_id from new_rows union all select organization_id from old_rows'))}
        end if;
        return null;
      end`,
    )}`.execute(db);
    const tables = { insert: 'new table as new_rows', update: 'old table as old_rows new table as new_rows', delete: 'old table as old_rows' };
    for (const [event, referencing] of Object.entries(tables)) {
      await sql`create trigger ${sql.raw(`certificates_${event}_archive_versions`)} after ${sql.raw(event)} on certificates
        referencing ${sql.raw(referencing)} for each statement execute function bump_archive_versions()`.execute(db);
    }
    return;
  }
  await sql`create trigger certificates_insert_archive_versions after insert on certificates
    begin ${sql.raw(BUMP('values (new.organization_id, 1)'))} end`.execute(db);
  await sql`create trigger certificates_update_archive_versions after update on certificates
    begin
      ${sql.raw(BUMP('values (new.organization_id, 1)'))}
      ${sql.raw(BUMP('select old.organization_id, 1 where old.organization_id <> new.organization_id'))}
    end`.execute(db);
  await sql`create trigger certificates_delete_archive_versions after delete on certificates
    begin ${sql.raw(BUMP('values (old.organization_id, 1)'))} end`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const event of ['insert', 'update', 'delete']) {
    await sql`drop trigger if exists ${sql.raw(`certificates_${event}_archive_versions`)} ${sql.raw(isPostgres(db) ? 'on certificates' : '')}`.execute(db);
  }
  if (isPostgres(db)) await sql`drop function if exists bump_archive_versions()`.execute(db);
  await db.schema.dropTable('archive_versions').execute();
}
