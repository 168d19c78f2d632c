/** Certificate queries. The organization is always part of the WHERE clause (tenancy in the query). */
import type { Queryable } from '../../db/database';
import type { CertificatesTable, Database } from '../../db/schema';
import { sql, type Insertable, type SelectQueryBuilder, type Updateable } from 'kysely';
import type { CertificateListQuery as ListQuery, CertificateSort } from '../../../common/schemas/lists';
import { CERTIFICATE_STATUS_GROUPS, CERTIFICATE_TIME_STATUSES } from '../../../common/status-filters';
import { sortColumn } from '../../../common/sorts';
import type { PendingCertificateSort } from '../../../common/schemas/pending';
import { countedRows, countedStart, inOrder, mostlyTrue, pageWithTotal, type Order } from '../../db/sort';
import { containsThroughIndex } from '../../db/text-index';
import { statusListFilters } from '../../db/list-filters';
import { certificateSql } from '../../db/status-sql';

/** The statuses of common/status.ts over `c` (db/status-sql.ts). */
const status = certificateSql('c');

/** Each certificate with its organization, owner and approver. */
function selectCertificates(db: Queryable) {
  return db.selectFrom('certificates as c').innerJoin('organizations as o', 'o.organization_id', 'c.organization_id')
    .leftJoin('members as owner', 'owner.member_id', 'c.owner_member_id')
    .leftJoin('members as approver', 'approver.member_id', 'c.approver_member_id');
}

/** The tables a certificate query may join, with `c` the certificates. */
type CertificateTables = Database & { c: CertificatesTable };

/** A list row's own columns, then its organization's and owner's names. */
const OWN = [
  'c.distinguished_name', 'c.description', 'c.date_not_before', 'c.date_not_after', 'c.date_approved',
  'c.date_revoked', 'c.date_expiry_acknowledged', 'c.date_created', 'c.organization_id', 'c.owner_member_id',
] as const;
const SUMMARY = [...OWN, 'o.organization_name', 'owner.name as owner_name'] as const;

export type CertificateListRow = Awaited<ReturnType<typeof listCertificates>>['rows'][number];

/** Bulk actions (bulk.ts): only the rows in the state the action applies to, by its condition in db/status-sql.ts. */
export type CertificateState = 'notApproved' | 'notRevoked' | 'pendingAcknowledgement';

export type CertificateListQuery = ListQuery & { owner_member_id?: string; state?: CertificateState };

/** The columns of each sort before the key (docs/decisions.md "Sorting"); every one has its index (migration 0017). */
const SORT_COLUMNS = {
  distinguished_name: ['c.dn_search'],
  date_not_before: ['c.date_not_before'],
  date_not_after: ['c.date_not_after'],
  date_created: ['c.date_created'],
  organization_name: ['o.organization_name', 'c.dn_search'],
} as const;

/**
 * A list's order: the sort asked for, or the usual one (one organization's by name, several by
 * organization then name), then the DN, unique, as `dn_search` (the lower-cased DN) need not be.
 * One organization's name is the same on every row, so there it is left out and its indexes give the order.
 */
function listOrder(sort: CertificateSort | PendingCertificateSort, oneOrganization: boolean): Order {
  const { column, descending } = sortColumn(sort);
  const columns: string[] = SORT_COLUMNS[column].filter((c) => !(oneOrganization && c === 'o.organization_name'));
  return { columns: [...columns, 'c.distinguished_name'], descending };
}

/** The chips, "expiring within" and the range on not-after (db/list-filters.ts). */
const filters = statusListFilters({
  sql: status, groups: CERTIFICATE_STATUS_GROUPS, timeStatuses: CERTIFICATE_TIME_STATUSES,
  validity: { table: 'certificates', start: 'date_not_before', end: 'date_not_after' },
});

/** The filters that read the clock: which rows they let through changes as rows enter or leave their validity. */
export const filterReadsClock = filters.readsClock;

/** When a row may enter or leave the filters by time alone (db/list-filters.ts). */
export const nextFilterChange = filters.nextChange;

/** From this offset on, a page of every organization's certificates by name starts from its organization's (db/sort.ts). */
const DEEP = 1_000;

/**
 * One page of certificates of the given organizations ('all' for operator-wide lists),
 * filtered in SQL. Dates are ISO strings, so comparing them as text compares instants.
 */
export async function listCertificates(
  db: Queryable,
  organizations: 'all' | string[],
  query: CertificateListQuery,
  now: Date,
) {
  if (organizations !== 'all' && organizations.length === 0) return { rows: [], total: 0 };
  const { filtered, order, organizationsFirst, plain } = await listParts(db, organizations, query, now);
  // The page's keys first, from the order's index, and only its rows joined: a page deep in the list skipped
  // 19,900 rows with their organization and owner joined, 24 ms, where the keys alone are an index's walk.
  let keys = inOrder(filtered(keysFrom(db, organizationsFirst)).select('c.distinguished_name'), order);
  // Deep in the unfiltered list of all organizations, from the organization the page starts in (db/sort.ts).
  const start = organizations === 'all' && plain && organizationsFirst && query.offset >= DEEP ? await countedStart(db, 'certificates', query.offset, order.descending) : undefined;
  if (start) keys = keys.where(sql.ref('o.organization_name'), order.descending ? '<=' : '>=', start.from);
  keys = keys.offset(start?.offset ?? query.offset).limit(query.limit);
  const page = inOrder(selectCertificates(db).select(SUMMARY).where('c.distinguished_name', 'in', keys), order);
  const count = plain ? countedRows(db, 'certificates', organizations) : filtered(db.selectFrom('certificates as c')).select((eb) => eb.fn.countAll<number>().as('n'));
  return pageWithTotal(page, count, query.offset, query.limit, true);
}

/**
 * The certificates of a list's keys; `organizationsFirst`, for an order by organization: SQLite keeps the tables of a
 * CROSS JOIN in the order written, so it reads the organizations by name and each one's certificates from its index
 * (a page in 1 ms); otherwise, without statistics, it read every certificate and sorted them (70 ms for 100,000, more
 * with the DN as tie-break). PostgreSQL plans a CROSS JOIN with its condition like any join.
 */
function keysFrom(db: Queryable, organizationsFirst: boolean) {
  return organizationsFirst
    ? db.selectFrom('organizations as o').crossJoin('certificates as c').whereRef('c.organization_id', '=', 'o.organization_id')
    : db.selectFrom('certificates as c');
}

/**
 * The DNs of every certificate of a list, in its order (a CSV export reads them first, then the rows by key:
 * an offset would read the list up to each batch again, and a sorted one sort it again).
 */
export async function listCertificateKeys(db: Queryable, organizations: 'all' | string[], query: Omit<CertificateListQuery, 'offset' | 'limit'>, now: Date) {
  if (organizations !== 'all' && organizations.length === 0) return [];
  const { filtered, order, organizationsFirst } = await listParts(db, organizations, query, now);
  // The conditions read only `c` and the order at most the organization's name: no member is joined.
  const rows = await inOrder(filtered(keysFrom(db, organizationsFirst)).select('c.distinguished_name'), order).execute();
  return rows.map((r) => r.distinguished_name);
}

/** A row of a CSV export: the list's, with the fingerprint stored at upload (migration 0024), no PEM. */
export type CertificateExportRow = CertificateListRow & { fingerprint_sha256: string | null };

/**
 * The export rows of these DNs (those that still exist), in any order. The owner's name is looked up row by row:
 * joined, PostgreSQL hashed all 20,000 members for each batch of 1,000 (19 of its 32 ms); SQLite gains too (a batch
 * 13 -> 8 ms). The organization stays joined: looked up row by row, SQLite took a third longer.
 */
export async function certificatesByKey(db: Queryable, keys: readonly string[]): Promise<CertificateExportRow[]> {
  if (!keys.length) return [];
  return db.selectFrom('certificates as c').innerJoin('organizations as o', 'o.organization_id', 'c.organization_id')
    .select([...OWN, 'o.organization_name', 'c.fingerprint_sha256'])
    .select((eb) => eb.selectFrom('members as owner').select('owner.name').whereRef('owner.member_id', '=', 'c.owner_member_id').as('owner_name'))
    .where('c.distinguished_name', 'in', keys)
    .execute();
}

/** A list's conditions and order (db/list-filters.ts, "Sorting"), for its pages and its keys. */
async function listParts(db: Queryable, organizations: 'all' | string[], query: Omit<CertificateListQuery, 'offset' | 'limit'>, now: Date) {
  const at = now.toISOString();
  // The trigram index names the candidates, the LIKE decides (db/text-index.ts).
  const nameFilter = query.name?.trim() ? await containsThroughIndex(db, { table: 'certificates_text', key: 'c.rowid', column: 'c.dn_search' }, query.name) : undefined;
  // The filters read only columns of `c`, so the count runs on the certificates alone: the joins
  // (one row each) would make it read every row of the organization, PEM included, not the index.
  type Query = SelectQueryBuilder<CertificateTables, 'c', object>;
  const conditions: ((q: Query) => Query)[] = [];
  const { owner_member_id: owner, state } = query;
  if (owner) conditions.push((q) => q.where('c.owner_member_id', '=', owner));
  if (state) conditions.push((q) => q.where(status[state](at)));
  if (nameFilter) conditions.push((q) => q.where(nameFilter));
  if (query.hideExpired) conditions.push((q) => q.where(mostlyTrue(db, status.notExpired(at))));
  if (query.hideRequests) conditions.push((q) => q.where(status.decided()));
  if (query.hideValid) conditions.push((q) => q.where(status.notValid(at)));
  for (const condition of filters.conditions(query, at)) conditions.push((q) => q.where(condition));
  const filtered = <Q extends Query>(q: Q): Q => {
    let f: Query = organizations === 'all' ? q : q.where('c.organization_id', 'in', organizations);
    for (const condition of conditions) f = condition(f);
    return f as Q;
  };
  const oneOrganization = organizations !== 'all' && organizations.length === 1;
  const order = listOrder(query.sort ?? (oneOrganization ? 'distinguished_name' : 'organization_name'), oneOrganization);
  // `plain`: no condition but the organizations, so the total is the organizations' number of certificates.
  return { filtered, order, organizationsFirst: order.columns[0] === 'o.organization_name', plain: conditions.length === 0 };
}

export async function findCertificate(db: Queryable, distinguishedName: string, organizationId?: string) {
  let q = selectCertificates(db)
    .selectAll('c')
    .select(['o.organization_name', 'owner.name as owner_name', 'approver.name as approver_name'])
    .where('c.distinguished_name', '=', distinguishedName);
  if (organizationId) q = q.where('c.organization_id', '=', organizationId);
  return q.executeTakeFirst();
}

export type CertificateDetailRow = NonNullable<Awaited<ReturnType<typeof findCertificate>>>;

/** Every insert carries the fingerprint (x509.ts computes it): the column is nullable only for older instances' rows. */
export async function insertCertificate(db: Queryable, row: Insertable<CertificatesTable> & { fingerprint_sha256: string }) {
  await db.insertInto('certificates').values(row).execute();
}

export async function updateCertificate(db: Queryable, distinguishedName: string, changes: Updateable<CertificatesTable>) {
  await db.updateTable('certificates').set(changes).where('distinguished_name', '=', distinguishedName).execute();
}

export async function deleteCertificate(db: Queryable, distinguishedName: string) {
  await db.deleteFrom('certificates').where('distinguished_name', '=', distinguishedName).execute();
}

/** The DNs of every row of a pending list, in its order (its CSV export, as `listCertificateKeys`). */
export async function listPendingCertificateKeys(db: Queryable, organizations: 'all' | string[], kind: 'approval' | 'acknowledgement', now: Date, sort?: PendingCertificateSort) {
  if (organizations !== 'all' && organizations.length === 0) return [];
  const { pending, order } = pendingParts(db, organizations, kind, now, sort);
  return (await inOrder(pending().select('c.distinguished_name'), order).execute()).map((r) => r.distinguished_name);
}

/**
 * One page of the pending approvals (Not approved, oldest request first) or acknowledgements
 * (approved, not revoked, expired, not acknowledged; the longest expired first), with their total.
 * Each has a partial index in that order holding the organization (migration 0009): the page and
 * the count read the index alone, and only the page's rows are joined.
 */
export async function listPendingCertificates(
  db: Queryable,
  organizations: 'all' | string[],
  kind: 'approval' | 'acknowledgement',
  now: Date,
  page: { offset: number; limit: number; sort?: PendingCertificateSort },
) {
  if (organizations !== 'all' && organizations.length === 0) return { rows: [], total: 0 };
  const { pending, order } = pendingParts(db, organizations, kind, now, page.sort);
  const keys = inOrder(pending().select('c.distinguished_name'), order).offset(page.offset).limit(page.limit);
  const [rows, count] = await Promise.all([
    inOrder(selectCertificates(db).select(SUMMARY).where('c.distinguished_name', 'in', keys), order).execute(),
    pending().select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

function pendingParts(db: Queryable, organizations: 'all' | string[], kind: 'approval' | 'acknowledgement', now: Date, sort?: PendingCertificateSort) {
  // The key after the date makes the order total, so pages neither overlap nor skip a row.
  // Approvals have a partial index in each order (migrations 0009, 0017); acknowledgements only in
  // the end of validity's, whose range holds the expired rows: in another order, those are sorted.
  const by = sort ?? (kind === 'approval' ? 'date_created' : 'date_not_after');
  const order = { ...listOrder(by, false), sortFound: kind === 'acknowledgement' && sortColumn(by).column !== 'date_not_after' };
  const pending = () => {
    let q = db.selectFrom('certificates as c');
    if (organizations !== 'all') q = q.where('c.organization_id', 'in', organizations);
    return q.where(kind === 'approval' ? status.notApproved() : status.pendingAcknowledgement(now.toISOString()));
  };
  return { pending, order };
}
