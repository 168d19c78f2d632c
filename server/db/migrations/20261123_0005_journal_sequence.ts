/**
 * Journal pages by key. Records are append-only, so each organization's records are numbered 1, 2,
 * 3… as they are written (`sequence`), and `journal_counters` holds how many each organization has.
 * The page at offset k of n records is then the records numbered n − k and below: an index seek at
 * any depth instead of walking k entries, and the total without counting (docs/decisions.md
 * "Journal pages by key").
 *
 * A trigger numbers every insert, whoever makes it, in the inserting transaction; PostgreSQL's
 * upsert locks the organization's counter row, so concurrent writers get consecutive numbers.
 */
import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../database';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('audit_records').addColumn('sequence', 'integer').execute();
  await db.schema.createTable('journal_counters')
    .addColumn('organization_id', 'text', (c) => c.primaryKey())
    .addColumn('total', 'integer', (c) => c.notNull())
    .execute();
  // Number what is there already, oldest first per organization.
  await sql`update audit_records set sequence = numbered.n from (
      select record_id, row_number() over (partition by organization_id order by record_id) as n
      from audit_records where organization_id is not null
    ) as numbered where audit_records.record_id = numbered.record_id`.execute(db);
  await sql`insert into journal_counters (organization_id, total)
    select organization_id, count(*) from audit_records where organization_id is not null group by organization_id`.execute(db);
  await db.schema.createIndex('audit_records_sequence').on('audit_records').columns(['organization_id', 'sequence']).unique().execute();

  if (isPostgres(db)) {
    await sql`create function number_journal_record() returns trigger language plpgsql as $$
      begin
        insert into journal_counters (organization_id, total) values (new.organization_id, 1)
          on conflict (organization_id) do update set total = journal_counters.total + 1
          returning total into new.sequence;
        -- The id was drawn before this waited for the counter: draw it again under the lock, so
        -- within an organization ids and numbers rise together (newest first means both).
        new.record_id := nextval(pg_get_serial_sequence('audit_records', 'record_id'));
        return new;
      end $$`.execute(db);
    await sql`create trigger audit_records_sequence before insert on audit_records
      for each row when (new.organization_id is not null) execute function number_journal_record()`.execute(db);
    return;
  }
  await sql`create trigger audit_records_sequence after insert on audit_records when new.organization_id is not null
    begin
      insert into journal_counters (organization_id, total) values (new.organization_id, 1)
        on conflict (organization_id) do update set total = total + 1;
      update audit_records set sequence = (select total from journal_counters where organization_id = new.organization_id)
        where record_id = new.record_id;
    end`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    await sql`drop trigger if exists audit_records_sequence on audit_records`.execute(db);
    await sql`drop function if exists number_journal_record()`.execute(db);
  } else {
    await sql`drop trigger if exists audit_records_sequence`.execute(db);
  }
  await db.schema.dropIndex('audit_records_sequence').ifExists().execute();
  await db.schema.dropTable('journal_counters').execute();
  await db.schema.alterTable('audit_records').dropColumn('sequence').execute();
}
