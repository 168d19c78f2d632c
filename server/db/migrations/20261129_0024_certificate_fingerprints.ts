/**
 * The SHA-256 fingerprint of each certificate, stored (docs/decisions.md "Certificates"): the CSV exports read the
 * list's rows without the PEM, so the fingerprint is computed once, at upload (certificates/x509.ts), not per row
 * of every export. Existing rows are filled here, a batch at a time by key, from their stored PEM.
 *
 * Nullable: a row written by an instance that does not know the column yet (several instances on one PostgreSQL
 * during an upgrade) has none, and its CSV cell stays empty; the details compute it from the PEM anyway.
 */
import { createHash } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../database';

const BATCH = 500;

/**
 * The DER's SHA-256 as colon-separated upper-case hex, as Node's `X509Certificate.fingerprint256` gives it at upload
 * (a migration imports no feature module). The stored PEM is one canonical block (x509.ts).
 */
function fingerprint(pem: string): string {
  const der = Buffer.from(pem.replace(/-----[^-]+-----|\s/g, ''), 'base64');
  return createHash('sha256').update(der).digest('hex').toUpperCase().match(/../g)!.join(':');
}

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('certificates').addColumn('fingerprint_sha256', 'text').execute();
  let after: string | null = null;
  for (;;) {
    let q = db.selectFrom('certificates').select(['distinguished_name', 'certificate_pem']).orderBy('distinguished_name').limit(BATCH);
    if (after !== null) q = q.where('distinguished_name', '>', after);
    const rows: { distinguished_name: string; certificate_pem: string }[] = await q.execute();
    if (rows.length === 0) break;
    // One statement per batch: each row's own value by its key.
    const cases = sql.join(rows.map((r) => sql`when ${r.distinguished_name} then ${fingerprint(r.certificate_pem)}`), sql` `);
    await db.updateTable('certificates')
      .set({ fingerprint_sha256: sql`case distinguished_name ${cases} end` })
      .where('distinguished_name', 'in', rows.map((r) => r.distinguished_name))
      .execute();
    after = rows[rows.length - 1].distinguished_name;
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    await db.schema.alterTable('certificates').dropColumn('fingerprint_sha256').execute();
    return;
  }
  // SQLite checks every trigger of the table again on DROP COLUMN and refuses the archive's upsert alias
  // (migration 0015): the table's triggers go while the column is dropped and come back as they were.
  const { rows } = await sql<{ name: string; sql: string }>`select name, sql from sqlite_master where type = 'trigger' and tbl_name = 'certificates'`.execute(db);
  for (const trigger of rows) await sql`drop trigger ${sql.id(trigger.name)}`.execute(db);
  await db.schema.alterTable('certificates').dropColumn('fingerprint_sha256').execute();
  for (const trigger of rows) await sql.raw(trigger.sql).execute(db);
}
