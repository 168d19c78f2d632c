/**
 * One organization's certificates in the list's usual order, by name and then the DN that makes it total, in one
 * index (docs/decisions.md "Sorting"). `certificates_list` (migration 0006) holds the name and the filters' columns but
 * not the DN, so every row up to a page's end was read from the table to order ties: a page at offset 19,900 of the
 * large organization read 20,000 rows. With the DN here a page's keys are found in the index alone
 * (certificates/repository.ts).
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('certificates_sort_name').on('certificates').columns(['organization_id', 'dn_search', 'distinguished_name']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('certificates_sort_name').execute();
}
