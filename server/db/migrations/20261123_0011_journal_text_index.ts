/**
 * A trigram index for the journal's text filter (docs/decisions.md "Journal pages by key"): a
 * filter of three characters or more finds its candidate records in the index instead of reading
 * every record of the organization; the filter's own LIKE then decides, so the matches are exactly
 * those of a plain substring search.
 *
 * SQLite: an FTS5 table with the trigram tokenizer, contentless (it only indexes; the records stay
 * in audit_records) and detail=none (which records hold a trigram, not where: a quarter of the size,
 * and the LIKE checks the order anyway). Triggers keep it in step with every insert, update and
 * delete, whoever makes them. PostgreSQL: pg_trgm's GIN index on the lower-cased reason and message.
 */
import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../database';

export async function up(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    // A trusted extension: the database's owner may create it without being a superuser.
    await sql`create extension if not exists pg_trgm`.execute(db);
    await sql`create index audit_records_text on audit_records
      using gin ((lower(reason) || ' ' || lower(message)) gin_trgm_ops)`.execute(db);
    return;
  }
  await sql`create virtual table audit_records_text using fts5(
      reason, message, content = '', contentless_delete = 1, tokenize = 'trigram', detail = none)`.execute(db);
  await sql`insert into audit_records_text (rowid, reason, message) select record_id, reason, message from audit_records`.execute(db);
  await sql`create trigger audit_records_text_insert after insert on audit_records begin
      insert into audit_records_text (rowid, reason, message) values (new.record_id, new.reason, new.message);
    end`.execute(db);
  await sql`create trigger audit_records_text_update after update of record_id, reason, message on audit_records begin
      delete from audit_records_text where rowid = old.record_id;
      insert into audit_records_text (rowid, reason, message) values (new.record_id, new.reason, new.message);
    end`.execute(db);
  await sql`create trigger audit_records_text_delete after delete on audit_records begin
      delete from audit_records_text where rowid = old.record_id;
    end`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    // pg_trgm stays: other indexes may use it by then.
    await sql`drop index if exists audit_records_text`.execute(db);
    return;
  }
  for (const trigger of ['insert', 'update', 'delete']) await sql`drop trigger if exists ${sql.raw(`audit_records_text_${trigger}`)}`.execute(db);
  await sql`drop table if exists audit_records_text`.execute(db);
}
