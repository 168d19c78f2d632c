/** Certificate queries. The organization is always part of the WHERE clause (tenancy in the query). */
import type { Queryable } from '../../db/database';
import type { CertificatesTable, Database } from '../../db/schema';
import type { Insertable, SelectQueryBuilder, Updateable } from 'kysely';
import type { StatusListQuery } from '../../../common/schemas/lists';
import { containsThroughIndex } from '../../db/text-index';
import { cachedTotal, nextInstant, organizationsKey } from '../../db/count-cache';
import { certificateSql } from '../../db/status-sql';

/** The statuses of common/status.ts over `c` (db/status-sql.ts). */
const status = certificateSql('c');

function selectCertificates(db: Queryable) {
  return db
    .selectFrom('certificates as c')
    .innerJoin('organizations as o', 'o.organization_id', 'c.organization_id')
    .leftJoin('members as owner', 'owner.member_id', 'c.owner_member_id')
    .leftJoin('members as approver', 'approver.member_id', 'c.approver_member_id');
}

/** The tables a certificate query may join, with `c` the certificates. */
type CertificateTables = Database & { c: CertificatesTable };

const SUMMARY = [
  'c.distinguished_name', 'c.description', 'c.date_not_before', 'c.date_not_after', 'c.date_approved',
  'c.date_revoked', 'c.date_expiry_acknowledged', 'c.date_created', 'c.organization_id', 'o.organization_name',
  'c.owner_member_id', 'owner.name as owner_name',
] as const;

export type CertificateListRow = Awaited<ReturnType<typeof listCertificates>>['rows'][number];

export type CertificateListQuery = StatusListQuery & { owner_member_id?: string };

/** The filters that read the clock: which rows they let through changes as rows enter or leave their validity. */
export const filterReadsClock = (query: StatusListQuery) => query.hideExpired || query.hideValid;

/** The next instant a certificate enters or leaves its validity window. */
export const nextValidityEdge = (db: Queryable, now: Date) => nextInstant(db, 'certificates', ['date_not_before', 'date_not_after'], now);

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
  const at = now.toISOString();
  // The trigram index names the candidates, the LIKE decides (db/text-index.ts).
  const nameFilter = query.name?.trim() ? await containsThroughIndex(db, { table: 'certificates_text', key: 'c.rowid', column: 'c.dn_search' }, query.name) : undefined;
  // The filters read only columns of `c`, so the count runs on the certificates alone: the joins
  // (one row each) would make it read every row of the organization, PEM included, not the index.
  const filtered = <Q extends SelectQueryBuilder<CertificateTables, 'c', object>>(q: Q): Q => {
    let f = q as SelectQueryBuilder<CertificateTables, 'c', object>;
    if (organizations !== 'all') f = f.where('c.organization_id', 'in', organizations);
    if (query.owner_member_id) f = f.where('c.owner_member_id', '=', query.owner_member_id);
    if (nameFilter) f = f.where(nameFilter);
    if (query.hideExpired) f = f.where(status.notExpired(at));
    if (query.hideRequests) f = f.where(status.decided());
    if (query.hideValid) f = f.where(status.notValid(at));
    return f as Q;
  };
  let page = filtered(selectCertificates(db)).select(SUMMARY);
  // One organization: its name is the same on every row, so the index (organization, DN) gives the order.
  if (organizations === 'all' || organizations.length > 1) page = page.orderBy('o.organization_name');
  const key = JSON.stringify(['certificates', organizationsKey(organizations), query.owner_member_id, query.name?.trim(), query.hideExpired, query.hideRequests, query.hideValid]);
  const count = async () => Number((await filtered(db.selectFrom('certificates as c')).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  const [rows, total] = await Promise.all([
    page.orderBy('c.dn_search').offset(query.offset).limit(query.limit).execute(),
    cachedTotal(db, key, now, count, filterReadsClock(query) ? nextValidityEdge(db, now) : undefined),
  ]);
  return { rows, total };
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

export async function insertCertificate(db: Queryable, row: Insertable<CertificatesTable>) {
  await db.insertInto('certificates').values(row).execute();
}

export async function updateCertificate(db: Queryable, distinguishedName: string, changes: Updateable<CertificatesTable>) {
  await db.updateTable('certificates').set(changes).where('distinguished_name', '=', distinguishedName).execute();
}

export async function deleteCertificate(db: Queryable, distinguishedName: string) {
  await db.deleteFrom('certificates').where('distinguished_name', '=', distinguishedName).execute();
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
  page: { offset: number; limit: number },
) {
  if (organizations !== 'all' && organizations.length === 0) return { rows: [], total: 0 };
  // The key after the date makes the order total, so pages neither overlap nor skip a row.
  const order = kind === 'approval' ? ('c.date_created' as const) : ('c.date_not_after' as const);
  const pending = () => {
    let q = db.selectFrom('certificates as c');
    if (organizations !== 'all') q = q.where('c.organization_id', 'in', organizations);
    return q.where(kind === 'approval' ? status.notApproved() : status.pendingAcknowledgement(now.toISOString()));
  };
  const keys = pending().select('c.distinguished_name').orderBy(order).orderBy('c.distinguished_name').offset(page.offset).limit(page.limit);
  const [rows, count] = await Promise.all([
    selectCertificates(db).select(SUMMARY).where('c.distinguished_name', 'in', keys).orderBy(order).orderBy('c.distinguished_name').execute(),
    pending().select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}
