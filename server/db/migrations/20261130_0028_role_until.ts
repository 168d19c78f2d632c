/**
 * Roles with an end (issue 33): `date_until`, the instant from which the assignment no longer counts (null: standing),
 * and for the access review when and by whom it was granted (`date_assigned`, `assigned_by`; null for the
 * assignments made before this migration, whose grant the table never recorded). The index serves the
 * sign-in's "earliest end" and the time scan's expiring and expired roles: only time-boxed rows are in it.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('role_assignments').addColumn('date_until', 'text').execute();
  await db.schema.alterTable('role_assignments').addColumn('date_assigned', 'text').execute();
  await db.schema.alterTable('role_assignments').addColumn('assigned_by', 'text').execute();
  await db.schema
    .createIndex('role_assignments_until')
    .on('role_assignments')
    .columns(['date_until', 'member_id'])
    .where(sql.ref('date_until'), 'is not', null)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('role_assignments_until').execute();
  for (const column of ['assigned_by', 'date_assigned', 'date_until']) {
    await db.schema.alterTable('role_assignments').dropColumn(column).execute();
  }
}
