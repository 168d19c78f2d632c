/** License queries. The organization is part of every list's WHERE clause (tenancy in the query). */
import type { Insertable, SelectQueryBuilder, Updateable } from 'kysely';
import type { Queryable } from '../../db/database';
import type { Database, LicensesTable } from '../../db/schema';

/** The tables a license query may join, with `l` the licenses. */
type LicenseTables = Database & { l: LicensesTable };
import type { LicenseListQuery, LicenseSort } from '../../../common/schemas/lists';
import { LICENSE_STATUS_GROUPS, LICENSE_TIME_STATUSES } from '../../../common/status-filters';
import { sortColumn } from '../../../common/sorts';
import type { PendingLicenseSort } from '../../../common/schemas/pending';
import { countedRows, inOrder, mostlyTrue, pageWithTotal, type Order } from '../../db/sort';
import { containsLowered } from '../../db/text-filter';
import { containsThroughIndex } from '../../db/text-index';
import { statusListFilters } from '../../db/list-filters';
import { licenseSql } from '../../db/status-sql';
import { conflict } from '../../errors';

/** The statuses of common/status.ts over `l` (db/status-sql.ts). */
const status = licenseSql('l');

/** Each license with its organization and its successor `s` (the license a renewal made). */
function selectLicenses(db: Queryable) {
  return db
    .selectFrom('licenses as l')
    .innerJoin('organizations as o', 'o.organization_id', 'l.organization_id')
    .leftJoin('licenses as s', 's.license_id', 'l.extended_by_license_id')
    .select([
      'l.license_id', 'l.license_name', 'l.license_scope', 'l.organization_id', 'l.date_valid_from', 'l.days_valid',
      'l.date_valid_until', 'l.time_zone', 'l.note', 'l.date_approved', 'l.date_rejected', 'l.date_expiry_acknowledged', 'l.version',
      'l.date_created', 'l.extended_by_license_id', 'o.organization_name',
      's.license_name as s_license_name', 's.date_valid_from as s_date_valid_from', 's.date_valid_until as s_date_valid_until',
      's.date_approved as s_date_approved', 's.date_rejected as s_date_rejected',
    ]);
}

export type LicenseRow = NonNullable<Awaited<ReturnType<typeof findLicense>>>;

/** The chips, "expiring within" and the range on valid-until (db/list-filters.ts). */
const filters = statusListFilters({
  sql: status, groups: LICENSE_STATUS_GROUPS, timeStatuses: LICENSE_TIME_STATUSES,
  validity: { table: 'licenses', start: 'date_valid_from', end: 'date_valid_until' },
});

/** The filters that read the clock: which rows they let through changes as rows enter or leave their validity. */
export const filterReadsClock = filters.readsClock;

/** When a row may enter or leave the filters by time alone (db/list-filters.ts). */
export const nextFilterChange = filters.nextChange;

/** The columns of each sort before the key (docs/decisions.md "Sorting"); every one has its index (migration 0017). */
const SORT_COLUMNS = {
  license_name: ['l.name_search'],
  date_valid_from: ['l.date_valid_from'],
  date_valid_until: ['l.date_valid_until'],
  date_created: ['l.date_created'],
  organization_name: ['o.organization_name', 'l.name_search'],
} as const;

/**
 * A list's order: the sort asked for, or the usual one (one organization's by name, several by
 * organization then name). Names are unique (`name_search`, migration 0002), so an order by name
 * is total as it is; the others end with the license id. One organization's name is the same on
 * every row, so there it is left out and its indexes give the order.
 */
function listOrder(sort: LicenseSort | PendingLicenseSort, oneOrganization: boolean): Order {
  const { column, descending } = sortColumn(sort);
  const columns: string[] = SORT_COLUMNS[column].filter((c) => !(oneOrganization && c === 'o.organization_name'));
  return { columns: columns.at(-1) === 'l.name_search' ? columns : [...columns, 'l.license_id'], descending };
}

/** Bulk actions (bulk.ts): only the rows in the state the action applies to, by its condition in db/status-sql.ts. */
export type LicenseState = 'notApproved' | 'pendingAcknowledgement';

/**
 * One page of licenses of the given organizations ('all' for operator-wide lists), filtered in
 * SQL. Dates are ISO strings, so comparing them as text compares instants.
 */
export async function listLicenses(db: Queryable, organizations: 'all' | string[], query: LicenseListQuery & { state?: LicenseState }, now: Date) {
  if (organizations !== 'all' && organizations.length === 0) return { rows: [], total: 0 };
  const { filtered, order, plain } = await listParts(db, organizations, query, now);
  const page = inOrder(filtered(selectLicenses(db)), order);
  const count = plain ? countedRows(db, 'licenses', organizations) : filtered(db.selectFrom('licenses as l')).select((eb) => eb.fn.countAll<number>().as('n'));
  return pageWithTotal(page, count, query.offset, query.limit);
}

/** The ids of every license of a list, in its order (its CSV export reads them first, then the rows by key). */
export async function listLicenseKeys(db: Queryable, organizations: 'all' | string[], query: Omit<LicenseListQuery, 'offset' | 'limit'>, now: Date) {
  if (organizations !== 'all' && organizations.length === 0) return [];
  const { filtered, order } = await listParts(db, organizations, query, now);
  const from = order.columns[0] === 'o.organization_name'
    ? db.selectFrom('licenses as l').innerJoin('organizations as o', 'o.organization_id', 'l.organization_id')
    : db.selectFrom('licenses as l');
  return (await inOrder(filtered(from).select('l.license_id'), order).execute()).map((r) => r.license_id);
}

/** The list rows of these licenses (those that still exist), in any order. */
export async function licensesByKey(db: Queryable, keys: readonly string[]) {
  return keys.length ? selectLicenses(db).where('l.license_id', 'in', keys).execute() : [];
}

/** A list's conditions and order (db/list-filters.ts, "Sorting"), for its pages and its keys. */
async function listParts(db: Queryable, organizations: 'all' | string[], query: Omit<LicenseListQuery, 'offset' | 'limit'> & { state?: LicenseState }, now: Date) {
  const at = now.toISOString();
  // The trigram index names the candidates, the LIKE decides (db/text-index.ts).
  const nameFilter = query.name?.trim() ? await containsThroughIndex(db, { table: 'licenses_text', key: 'l.rowid', column: 'l.name_search' }, query.name) : undefined;
  // The filters read only columns of `l`, so the count runs on the licenses alone (no joins to read).
  type Query = SelectQueryBuilder<LicenseTables, 'l', object>;
  const conditions: ((q: Query) => Query)[] = [];
  const { state } = query;
  if (state) conditions.push((q) => q.where(status[state](at)));
  if (nameFilter) conditions.push((q) => q.where(nameFilter));
  if (query.hideExpired) conditions.push((q) => q.where(mostlyTrue(db, status.notExpired(at))));
  if (query.hideRequests) conditions.push((q) => q.where(status.decided()));
  // "Valid" = approved and in force; everything else stays.
  if (query.hideValid) conditions.push((q) => q.where(status.notValid(at)));
  for (const condition of filters.conditions(query, at)) conditions.push((q) => q.where(condition));
  const filtered = <Q extends Query>(q: Q): Q => {
    let f: Query = organizations === 'all' ? q : q.where('l.organization_id', 'in', organizations);
    for (const condition of conditions) f = condition(f);
    return f as Q;
  };
  const oneOrganization = organizations !== 'all' && organizations.length === 1;
  const order = listOrder(query.sort ?? (oneOrganization ? 'license_name' : 'organization_name'), oneOrganization);
  // `plain`: no condition but the organizations, so the total is the organizations' number of licenses.
  return { filtered, order, plain: conditions.length === 0 };
}

export async function findLicense(db: Queryable, licenseId: string) {
  return selectLicenses(db).where('l.license_id', '=', licenseId).executeTakeFirst();
}

/** Is the name taken (case-insensitively), by a license other than `exceptId`? */
export async function nameTaken(db: Queryable, name: string, exceptId?: string): Promise<boolean> {
  let q = db.selectFrom('licenses').select('license_id').where('name_search', '=', name.toLowerCase());
  if (exceptId) q = q.where('license_id', '!=', exceptId);
  return !!(await q.executeTakeFirst());
}

/** Lower-cased names containing `text`, for deriving a free renewal name in one query. */
export async function namesContaining(db: Queryable, text: string): Promise<Set<string>> {
  const rows = await db.selectFrom('licenses').select('name_search').where(containsLowered('name_search', text)).execute();
  return new Set(rows.map((r) => r.name_search));
}

export function duplicateName(name: string) {
  return conflict(`A license named "${name}" already exists. License names are unique; choose another one.`);
}

/**
 * Inserts a license. The service checks the name first; a concurrent insert of the same name
 * trips the unique index instead, and that is the same conflict, not a server error.
 */
export async function insertLicense(db: Queryable, row: Insertable<LicensesTable>) {
  await db.insertInto('licenses').values(row).execute().catch(duplicateAs(row.license_name));
}

/** The only unique keys of a license are its id (random) and its name, so a violation is the name. */
function duplicateAs(name: string) {
  return (error: unknown): never => {
    const { code, message } = error as { code?: string; message?: string };
    if (code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || /UNIQUE constraint failed/.test(message ?? '')) throw duplicateName(name);
    throw error;
  };
}

/**
 * Optimistic lock: bumps the version only if it is still `version`. Under PostgreSQL a second
 * transaction racing on the same row waits for the first and then matches no row; under SQLite
 * transactions run one after the other. Either way exactly one caller wins.
 */
export async function claimVersion(db: Queryable, licenseId: string, version: number): Promise<boolean> {
  const result = await db
    .updateTable('licenses')
    .set((eb) => ({ version: eb('version', '+', 1) }))
    .where('license_id', '=', licenseId)
    .where('version', '=', version)
    .executeTakeFirst();
  return result.numUpdatedRows === 1n;
}

export async function updateLicense(db: Queryable, licenseId: string, changes: Updateable<LicensesTable>) {
  if (Object.keys(changes).length === 0) return;
  await db.updateTable('licenses').set(changes).where('license_id', '=', licenseId).execute().catch(duplicateAs(String(changes.license_name)));
}

/** The ids of every row of a pending list, in its order (its CSV export, as `listLicenseKeys`). */
export async function listPendingLicenseKeys(db: Queryable, organizations: 'all' | string[], kind: 'approval' | 'acknowledgement', now: Date, sort?: PendingLicenseSort) {
  if (organizations !== 'all' && organizations.length === 0) return [];
  const { pending, order } = pendingParts(db, organizations, kind, now, sort);
  return (await inOrder(pending().select('l.license_id'), order).execute()).map((r) => r.license_id);
}

/**
 * One page of the pending approvals (Not approved, oldest request first) or acknowledgements
 * (approved, expired, not acknowledged and without a successor, a rejected successor counting as
 * none; the longest expired first), with their total. Each has a partial index in that order
 * holding the organization and the successor's id (migration 0009): the page and the count read
 * the index, a successor only where there is one, and only the page's rows are joined.
 */
export async function listPendingLicenses(
  db: Queryable,
  organizations: 'all' | string[],
  kind: 'approval' | 'acknowledgement',
  now: Date,
  page: { offset: number; limit: number; sort?: PendingLicenseSort },
) {
  if (organizations !== 'all' && organizations.length === 0) return { rows: [], total: 0 };
  const { pending, order } = pendingParts(db, organizations, kind, now, page.sort);
  const keys = inOrder(pending().select('l.license_id'), order).offset(page.offset).limit(page.limit);
  const [rows, count] = await Promise.all([
    inOrder(selectLicenses(db).where('l.license_id', 'in', keys), order).execute(),
    pending().select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

/** A pending list's rows (a query of `l` alone) and order, for its pages and its keys. */
function pendingParts(db: Queryable, organizations: 'all' | string[], kind: 'approval' | 'acknowledgement', now: Date, sort?: PendingLicenseSort) {
  // The id after the date makes the order total, so pages neither overlap nor skip a row.
  // Approvals have a partial index in each order (migrations 0009, 0017); acknowledgements only in
  // the end of validity's, whose range holds the expired rows: in another order, those are sorted.
  const by = sort ?? (kind === 'approval' ? 'date_created' : 'date_valid_until');
  const order = { ...listOrder(by, false), sortFound: kind === 'acknowledgement' && sortColumn(by).column !== 'date_valid_until' };
  const pending = () => {
    let q = db.selectFrom('licenses as l');
    if (organizations !== 'all') q = q.where('l.organization_id', 'in', organizations);
    return q.where(kind === 'approval' ? status.notApproved() : status.pendingAcknowledgement(now.toISOString()));
  };
  return { pending, order };
}
