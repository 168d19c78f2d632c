/**
 * License names are unique regardless of letter case (docs/decisions.md "Licenses"): "Lab 2026"
 * and "LAB 2026" would read as the same license in a list. The service checks first and says so
 * in a 409; this index keeps two concurrent requests from both getting through.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('licenses_name_search_unique').on('licenses').column('name_search').unique().execute();
  // Pending acknowledgements and the hideExpired filter look at the end of the window.
  await db.schema.createIndex('licenses_valid_until').on('licenses').column('date_valid_until').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('licenses_valid_until').ifExists().execute();
  await db.schema.dropIndex('licenses_name_search_unique').ifExists().execute();
}
