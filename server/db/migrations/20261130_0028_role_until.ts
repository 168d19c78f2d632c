/**
 * Roles with an end (issue 33): `date_until`, the instant from which the assignment no longer counts (null: standing),
 * and for the access review when and by whom it was granted (`date_assigned`, `assigned_by`; null for the
 * assignments made before this migration, whose grant the table never recorded). The index serves the
 * sign-in's "earliest end" and the time scan's expiring and expired roles: only time-boxed rows are in it.
 */
import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../database';

const COLUMNS = ['date_until', 'date_assigned', 'assigned_by'];

export async function up(db: Kysely<any>): Promise<void> {
  // Those a SQLite down left in place (below) are there already.
  const table = (await db.introspection.getTables()).find((t) => t.name === 'role_assignments');
  const present = new Set(table?.columns.map((c) => c.name));
  for (const column of COLUMNS.filter((c) => !present.has(c))) {
    await db.schema.alterTable('role_assignments').addColumn(column, 'text').execute();
  }
  await db.schema
    .createIndex('role_assignments_until')
    .on('role_assignments')
    .columns(['date_until', 'member_id'])
    .where(sql.ref('date_until'), 'is not', null)
    .execute();
}

/**
 * On SQLite the columns stay: DROP COLUMN checks every trigger again and refuses the archive's upsert alias (as a
 * rename does, migration 0022), and the code before this migration never names them (its inserts leave them null).
 */
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('role_assignments_until').execute();
  if (!isPostgres(db)) return;
  for (const column of COLUMNS) {
    await db.schema.alterTable('role_assignments').dropColumn(column).execute();
  }
}
