/**
 * The zone a license's days are counted in (DECISIONS.md "Licenses": calendar days in the zone in which it
 * starts at local midnight, the requester's). Approving with a changed start or days counts the end again in
 * it. Licenses made before were counted in 24-hour days, which are UTC's calendar days: 'UTC' keeps their ends.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('licenses').addColumn('time_zone', 'text', (column) => column.notNull().defaultTo('UTC')).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('licenses').dropColumn('time_zone').execute();
}
