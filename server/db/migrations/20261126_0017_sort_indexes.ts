/**
 * Sorted lists (issue 12, docs/decisions.md "Sorting"): an index for each order a list may be asked
 * for, so a sorted page reads the index from its start (or its end, descending) and stops at the
 * limit instead of sorting every row. The shape of the list indexes before (migrations 0006, 0012):
 * the organization first for one organization's list, then the order's column, then the row's key,
 * which makes the order total; the admin lists across organizations get the same without the
 * organization. The pending approvals get partial indexes holding only the waiting rows, like
 * migration 0009's, one per order. Orders by name are served by the indexes there were
 * (certificates_list, licenses_list, members_list and the unique names).
 *
 * `certificates_not_after` and `licenses_valid_until` (the end of validity alone) are replaced by
 * the same with the key: they are their prefix, so the filters and the next-instant seeks that read
 * them read these.
 *
 * Pending acknowledgements ("expired now") cannot have an index per order: their condition is a time
 * no partial index can hold. Their rows are the range of migration 0009's index up to now, and a
 * sorted page sorts that range (a few thousand at a vendor's scale). Its certificate index gets the
 * columns of the other orders, so the range is sorted from the index alone, not from 5,000 table rows
 * with their PEMs (10–20 ms). License rows are small, and their range reads them in 2–5 ms.
 */
import { sql, type Kysely } from 'kysely';

/** [name, table, columns] of the plain indexes. */
const INDEXES: Array<[string, 'certificates' | 'licenses' | 'members' | 'resources', string[]]> = [
  // One organization's certificates, and all of them (the admin list).
  ['certificates_sort_not_before', 'certificates', ['organization_id', 'date_not_before', 'distinguished_name']],
  ['certificates_sort_not_after', 'certificates', ['organization_id', 'date_not_after', 'distinguished_name']],
  ['certificates_sort_created', 'certificates', ['organization_id', 'date_created', 'distinguished_name']],
  ['certificates_all_name', 'certificates', ['dn_search', 'distinguished_name']],
  ['certificates_all_not_before', 'certificates', ['date_not_before', 'distinguished_name']],
  ['certificates_all_not_after', 'certificates', ['date_not_after', 'distinguished_name']],
  ['certificates_all_created', 'certificates', ['date_created', 'distinguished_name']],
  // Licenses: names are unique (licenses_list, licenses_name_search_unique serve the name).
  ['licenses_sort_valid_from', 'licenses', ['organization_id', 'date_valid_from', 'license_id']],
  ['licenses_sort_valid_until', 'licenses', ['organization_id', 'date_valid_until', 'license_id']],
  ['licenses_sort_created', 'licenses', ['organization_id', 'date_created', 'license_id']],
  ['licenses_all_valid_from', 'licenses', ['date_valid_from', 'license_id']],
  ['licenses_all_valid_until', 'licenses', ['date_valid_until', 'license_id']],
  ['licenses_all_created', 'licenses', ['date_created', 'license_id']],
  // Members by email (unique): one organization's; all of them read the unique constraint's index.
  ['members_sort_email', 'members', ['organization_id', 'member_email']],
  // The resource catalogue by name, then ordinal (unique).
  ['resources_sort_name', 'resources', ['resource_name', 'ordinal']],
];

/** Pending approvals (migration 0009's predicates): the waiting rows in each other order, with the organization. */
const CERTIFICATE_APPROVALS: Array<[string, string]> = [
  ['certificates_pending_approval_name', 'dn_search'],
  ['certificates_pending_approval_not_before', 'date_not_before'],
  ['certificates_pending_approval_not_after', 'date_not_after'],
];
const LICENSE_APPROVALS: Array<[string, string]> = [
  ['licenses_pending_approval_name', 'name_search'],
  ['licenses_pending_approval_valid_from', 'date_valid_from'],
  ['licenses_pending_approval_valid_until', 'date_valid_until'],
];

/** Migration 0009's columns, with those of the other orders before its predicate's. */
const ACKNOWLEDGEMENT_COLUMNS = ['date_not_after', 'distinguished_name', 'organization_id', 'date_approved', 'date_revoked', 'date_expiry_acknowledged'];

async function certificateAcknowledgements(db: Kysely<any>, columns: string[]) {
  await db.schema.dropIndex('certificates_pending_acknowledgement').execute();
  await db.schema
    .createIndex('certificates_pending_acknowledgement')
    .on('certificates')
    .columns(columns)
    .where(sql.ref('date_approved'), 'is not', null)
    .where(sql.ref('date_revoked'), 'is', null)
    .where(sql.ref('date_expiry_acknowledged'), 'is', null)
    .execute();
}

export async function up(db: Kysely<any>): Promise<void> {
  await certificateAcknowledgements(db, [...ACKNOWLEDGEMENT_COLUMNS.slice(0, 3), 'dn_search', 'date_not_before', 'date_created', ...ACKNOWLEDGEMENT_COLUMNS.slice(3)]);
  await db.schema.dropIndex('certificates_not_after').execute();
  await db.schema.dropIndex('licenses_valid_until').execute();
  for (const [name, table, columns] of INDEXES) await db.schema.createIndex(name).on(table).columns(columns).execute();
  for (const [name, column] of CERTIFICATE_APPROVALS) {
    await db.schema
      .createIndex(name)
      .on('certificates')
      .columns([column, 'distinguished_name', 'organization_id', 'date_approved', 'date_revoked'])
      .where(sql.ref('date_approved'), 'is', null)
      .where(sql.ref('date_revoked'), 'is', null)
      .execute();
  }
  for (const [name, column] of LICENSE_APPROVALS) {
    await db.schema
      .createIndex(name)
      .on('licenses')
      .columns([column, 'license_id', 'organization_id', 'date_approved', 'date_rejected'])
      .where(sql.ref('date_approved'), 'is', null)
      .where(sql.ref('date_rejected'), 'is', null)
      .execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const [name] of [...LICENSE_APPROVALS, ...CERTIFICATE_APPROVALS, ...INDEXES].reverse()) await db.schema.dropIndex(name).execute();
  await db.schema.createIndex('licenses_valid_until').on('licenses').column('date_valid_until').execute();
  await db.schema.createIndex('certificates_not_after').on('certificates').column('date_not_after').execute();
  await certificateAcknowledgements(db, ACKNOWLEDGEMENT_COLUMNS);
}
