/**
 * Certificate and license lists of one organization, in name order, with the status filters of
 * SPEC.md §7. The index holds the columns the filters read, so the count behind X-Total-Count is
 * read from the index alone, never from the rows (a certificate row carries its PEM), and the
 * page is the index's own order (docs/decisions.md "List pages").
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('certificates_organization').execute();
  await db.schema
    .createIndex('certificates_list')
    .on('certificates')
    .columns(['organization_id', 'dn_search', 'date_not_after', 'date_not_before', 'date_approved', 'date_revoked', 'owner_member_id'])
    .execute();
  await db.schema.dropIndex('licenses_organization').execute();
  await db.schema
    .createIndex('licenses_list')
    .on('licenses')
    .columns(['organization_id', 'name_search', 'date_valid_until', 'date_valid_from', 'date_approved', 'date_rejected'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('licenses_list').execute();
  await db.schema.createIndex('licenses_organization').on('licenses').columns(['organization_id', 'name_search']).execute();
  await db.schema.dropIndex('certificates_list').execute();
  await db.schema.createIndex('certificates_organization').on('certificates').columns(['organization_id', 'dn_search']).execute();
}
