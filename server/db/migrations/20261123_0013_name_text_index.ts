/**
 * Trigram indexes for the name filters of the certificate and license lists (docs/decisions.md
 * "List name filters"), the journal's way (migration 0011): a filter of three characters or more
 * finds its candidates in the index instead of reading every index entry of the organization; the
 * filter's own LIKE then decides, so the matches are exactly those of a plain substring search.
 *
 * SQLite: one FTS5 table per list over the lower-cased column the filter reads, trigram tokenizer,
 * contentless and detail=none; its rowids are the rows' rowids (neither table has an integer key).
 * Triggers keep it in step with every insert, change of that column and delete, whoever makes them.
 * PostgreSQL: pg_trgm's GIN index on the column itself.
 */
import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../database';

/** table, indexed column, index (SQLite: FTS5 table and trigger prefix) */
const INDEXES = [
  ['certificates', 'dn_search', 'certificates_text'],
  ['licenses', 'name_search', 'licenses_text'],
] as const;

export async function up(db: Kysely<any>): Promise<void> {
  for (const [table, column, index] of INDEXES) {
    const [t, c, i] = [sql.raw(table), sql.raw(column), sql.raw(index)];
    if (isPostgres(db)) {
      // A trusted extension, there since migration 0011; `if not exists` lets this run on its own.
      await sql`create extension if not exists pg_trgm`.execute(db);
      await sql`create index ${i} on ${t} using gin (${c} gin_trgm_ops)`.execute(db);
      continue;
    }
    await sql`create virtual table ${i} using fts5(
        ${c}, content = '', contentless_delete = 1, tokenize = 'trigram', detail = none)`.execute(db);
    await sql`insert into ${i} (rowid, ${c}) select rowid, ${c} from ${t}`.execute(db);
    await sql`create trigger ${sql.raw(`${index}_insert`)} after insert on ${t} begin
        insert into ${i} (rowid, ${c}) values (new.rowid, new.${c});
      end`.execute(db);
    await sql`create trigger ${sql.raw(`${index}_update`)} after update of ${c} on ${t} begin
        delete from ${i} where rowid = old.rowid;
        insert into ${i} (rowid, ${c}) values (new.rowid, new.${c});
      end`.execute(db);
    await sql`create trigger ${sql.raw(`${index}_delete`)} after delete on ${t} begin
        delete from ${i} where rowid = old.rowid;
      end`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const [, , index] of INDEXES) {
    if (isPostgres(db)) {
      // pg_trgm stays: the journal's index uses it.
      await sql`drop index if exists ${sql.raw(index)}`.execute(db);
      continue;
    }
    for (const trigger of ['insert', 'update', 'delete']) await sql`drop trigger if exists ${sql.raw(`${index}_${trigger}`)}`.execute(db);
    await sql`drop table if exists ${sql.raw(index)}`.execute(db);
  }
}
