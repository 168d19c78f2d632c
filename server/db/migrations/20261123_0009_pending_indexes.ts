/**
 * The pending tasks (GET /api/approve, GET /api/acknowledge): one partial index per list, holding
 * only the rows that can be waiting, in the order the list pages them, with the organization for
 * the tenancy filter. A page walks the index from its offset and the total counts index entries
 * alone: a few thousand at a vendor's scale, never the table (docs/decisions.md "Pending tasks").
 * Approvals go by creation; acknowledgements by the end of validity, so the time condition
 * ("expired now") is a range of the index, not a filter over every approved row.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('certificates_pending_approval')
    .on('certificates')
    .columns(['date_created', 'distinguished_name', 'organization_id', 'date_approved', 'date_revoked'])
    .where(sql.ref('date_approved'), 'is', null)
    .where(sql.ref('date_revoked'), 'is', null)
    .execute();
  await db.schema
    .createIndex('certificates_pending_acknowledgement')
    .on('certificates')
    .columns(['date_not_after', 'distinguished_name', 'organization_id', 'date_approved', 'date_revoked', 'date_expiry_acknowledged'])
    .where(sql.ref('date_approved'), 'is not', null)
    .where(sql.ref('date_revoked'), 'is', null)
    .where(sql.ref('date_expiry_acknowledged'), 'is', null)
    .execute();
  await db.schema
    .createIndex('licenses_pending_approval')
    .on('licenses')
    .columns(['date_created', 'license_id', 'organization_id', 'date_approved', 'date_rejected'])
    .where(sql.ref('date_approved'), 'is', null)
    .where(sql.ref('date_rejected'), 'is', null)
    .execute();
  await db.schema
    .createIndex('licenses_pending_acknowledgement')
    .on('licenses')
    .columns(['date_valid_until', 'license_id', 'organization_id', 'extended_by_license_id', 'date_approved', 'date_expiry_acknowledged'])
    .where(sql.ref('date_approved'), 'is not', null)
    .where(sql.ref('date_expiry_acknowledged'), 'is', null)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const name of ['licenses_pending_acknowledgement', 'licenses_pending_approval', 'certificates_pending_acknowledgement', 'certificates_pending_approval']) {
    await db.schema.dropIndex(name).execute();
  }
}
