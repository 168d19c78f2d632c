/** Organization queries. Tenancy is part of every WHERE clause: callers pass the readable ids. */
import { sql, type Insertable, type Updateable } from 'kysely';
import type { Queryable } from '../../db/database';
import type { OrganizationRow, OrganizationsTable } from '../../db/schema';
import { containsIgnoringCase } from '../../db/text-filter';
import type { OrganizationSort } from '../../../common/schemas/organization';

export type OrganizationWithParent = OrganizationRow & { parent_organization_name: string | null; domains: string[] };

function selectOrganizations(db: Queryable) {
  return db
    .selectFrom('organizations as o')
    .leftJoin('organizations as p', 'p.organization_id', 'o.parent_organization_id')
    .selectAll('o')
    .select('p.organization_name as parent_organization_name');
}

async function withDomains(db: Queryable, rows: Array<OrganizationRow & { parent_organization_name: string | null }>) {
  if (rows.length === 0) return [];
  const domains = await db
    .selectFrom('organization_domains')
    .select(['organization_id', 'domain'])
    .where('organization_id', 'in', rows.map((r) => r.organization_id))
    .orderBy('domain')
    .execute();
  return rows.map((r) => ({ ...r, domains: domains.filter((d) => d.organization_id === r.organization_id).map((d) => d.domain) }));
}

export async function listOrganizations(
  db: Queryable,
  readable: 'all' | string[],
  { filter, offset, limit, sort }: { filter?: string; offset: number; limit: number; sort?: OrganizationSort },
): Promise<{ rows: OrganizationWithParent[]; total: number }> {
  if (readable !== 'all' && readable.length === 0) return { rows: [], total: 0 };
  let query = selectOrganizations(db);
  if (readable !== 'all') query = query.where('o.organization_id', 'in', readable);
  if (filter?.trim()) query = query.where(containsIgnoringCase(db, 'o.organization_name', filter));
  const count = async () => Number((await query.clearSelect().select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  const [rows, total] = await Promise.all([
    // Names are unique: the order is total, read from their unique index either way.
    query.orderBy('o.organization_name', sort === '-organization_name' ? 'desc' : 'asc').offset(offset).limit(limit).execute(),
    count(),
  ]);
  return { rows: await withDomains(db, rows), total };
}

export async function findOrganization(db: Queryable, organizationId: string): Promise<OrganizationWithParent | undefined> {
  const row = await selectOrganizations(db).where('o.organization_id', '=', organizationId).executeTakeFirst();
  return row ? (await withDomains(db, [row]))[0] : undefined;
}

/** Names are unique regardless of case, so "contoso" cannot sit beside "Contoso". */
export async function organizationNameTaken(db: Queryable, name: string, exceptId?: string): Promise<boolean> {
  let q = db.selectFrom('organizations').select('organization_id').where(sql<boolean>`lower(organization_name) = ${name.toLowerCase()}`);
  if (exceptId) q = q.where('organization_id', '<>', exceptId);
  return !!(await q.executeTakeFirst());
}

/** Of these domains, those another organization already trusts. */
export async function domainsTrustedElsewhere(db: Queryable, domains: string[], exceptId?: string): Promise<string[]> {
  if (domains.length === 0) return [];
  let q = db.selectFrom('organization_domains').select('domain').where('domain', 'in', domains);
  if (exceptId) q = q.where('organization_id', '<>', exceptId);
  return [...new Set((await q.execute()).map((r) => r.domain))];
}

/**
 * Which of these domains are the email domain of members outside `readable` (the organizations
 * the actor can read; 'all' means none are outside). Domains are validated names without LIKE
 * wildcards, and emails are stored lower-cased.
 */
export async function domainsOfMembersOutside(db: Queryable, domains: string[], readable: 'all' | string[]): Promise<string[]> {
  if (domains.length === 0 || readable === 'all') return [];
  const used: string[] = [];
  for (const domain of domains) {
    let q = db.selectFrom('members').select('member_id').where('member_email', 'like', `%@${domain}`);
    if (readable.length > 0) q = q.where('organization_id', 'not in', readable);
    if (await q.limit(1).executeTakeFirst()) used.push(domain);
  }
  return used;
}

/** Whether the portal has any organization (an empty database gets its first operator: first-operator.ts). */
export async function anyOrganization(db: Queryable): Promise<boolean> {
  return (await db.selectFrom('organizations').select('organization_id').limit(1).executeTakeFirst()) !== undefined;
}

export async function insertOrganization(db: Queryable, row: Insertable<OrganizationsTable>, domains: string[]) {
  await db.insertInto('organizations').values(row).execute();
  if (domains.length > 0) {
    await db.insertInto('organization_domains').values(domains.map((domain) => ({ organization_id: row.organization_id, domain }))).execute();
  }
}

export async function updateOrganization(db: Queryable, organizationId: string, changes: Updateable<OrganizationsTable>) {
  if (Object.keys(changes).length === 0) return;
  await db.updateTable('organizations').set(changes).where('organization_id', '=', organizationId).execute();
}

export async function replaceDomains(db: Queryable, organizationId: string, domains: string[]) {
  await db.deleteFrom('organization_domains').where('organization_id', '=', organizationId).execute();
  if (domains.length > 0) {
    await db.insertInto('organization_domains').values(domains.map((domain) => ({ organization_id: organizationId, domain }))).execute();
  }
}
