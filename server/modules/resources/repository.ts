/** Resource queries. Grants matter only for RESTRICTED resources (DECISIONS.md "Resources"). */
import type { Queryable } from '../../db/database';
import type { Insertable, Updateable } from 'kysely';
import type { ResourceRow, ResourcesTable } from '../../db/schema';
import type { Resource, ResourceSort } from '../../../common/schemas/resource';
import { sortColumn } from '../../../common/sorts';
import { inOrder, type Order } from '../../db/sort';

/** A resource as stored, with its grants; the service adds what the caller may do to it. */
export type ResourceRecord = Omit<Resource, 'abilities'>;
import { containsIgnoringCase } from '../../db/text-filter';

async function withOrganizations(db: Queryable, rows: ResourceRow[]): Promise<ResourceRecord[]> {
  if (rows.length === 0) return [];
  const grants = await db
    .selectFrom('resource_grants as g')
    .innerJoin('organizations as o', 'o.organization_id', 'g.organization_id')
    .select(['g.resource_id', 'o.organization_id', 'o.organization_name'])
    .where('g.resource_id', 'in', rows.map((r) => r.resource_id))
    .orderBy('o.organization_name')
    .execute();
  return rows.map((r) => ({
    ...r,
    organizations: grants.filter((g) => g.resource_id === r.resource_id).map(({ organization_id, organization_name }) => ({ organization_id, organization_name })),
  }));
}

/**
 * The catalogue's order: by ordinal (unique; the gateway's order, the usual one), or by name then
 * ordinal (resources_sort_name, migration 0017). The lists are not paged: the catalogue is short.
 */
function listOrder(sort: ResourceSort = 'ordinal'): Order {
  const { column, descending } = sortColumn(sort);
  return { columns: column === 'ordinal' ? ['r.ordinal'] : ['r.resource_name', 'r.ordinal'], descending };
}

export async function listResources(db: Queryable, filter?: string, sort?: ResourceSort): Promise<ResourceRecord[]> {
  let q = db.selectFrom('resources as r').selectAll('r');
  if (filter?.trim()) q = q.where((eb) => eb.or([containsIgnoringCase(db, 'r.resource_name', filter), containsIgnoringCase(db, 'r.path_pattern', filter)]));
  return withOrganizations(db, await inOrder(q, listOrder(sort)).execute());
}

/** What an organization may use: PUBLIC and DEFAULT ones, and RESTRICTED ones granted to it. */
export async function listResourcesOf(db: Queryable, organizationId: string, sort?: ResourceSort): Promise<ResourceRecord[]> {
  const rows = await db
    .selectFrom('resources as r')
    .selectAll('r')
    .where((eb) =>
      eb.or([
        eb('r.resource_access', '!=', 'RESTRICTED'),
        eb.exists(eb.selectFrom('resource_grants as g').select('g.resource_id').whereRef('g.resource_id', '=', 'r.resource_id').where('g.organization_id', '=', organizationId)),
      ]),
    )
    .$call((q) => inOrder(q, listOrder(sort)))
    .execute();
  return withOrganizations(db, rows);
}

export async function findResource(db: Queryable, resourceId: string): Promise<ResourceRecord | undefined> {
  const row = await db.selectFrom('resources').selectAll().where('resource_id', '=', resourceId).executeTakeFirst();
  return row ? (await withOrganizations(db, [row]))[0] : undefined;
}

export async function nextOrdinal(db: Queryable): Promise<number> {
  const row = await db.selectFrom('resources').select((eb) => eb.fn.max('ordinal').as('max')).executeTakeFirst();
  return Number(row?.max ?? 0) + 1;
}

export async function ordinalTaken(db: Queryable, ordinal: number, exceptId?: string): Promise<boolean> {
  let q = db.selectFrom('resources').select('resource_id').where('ordinal', '=', ordinal);
  if (exceptId) q = q.where('resource_id', '!=', exceptId);
  return !!(await q.executeTakeFirst());
}

export async function insertResource(db: Queryable, row: Insertable<ResourcesTable>) {
  await db.insertInto('resources').values(row).execute();
}

export async function updateResource(db: Queryable, resourceId: string, changes: Updateable<ResourcesTable>) {
  await db.updateTable('resources').set(changes).where('resource_id', '=', resourceId).execute();
}

export async function deleteResource(db: Queryable, resourceId: string) {
  await db.deleteFrom('resources').where('resource_id', '=', resourceId).execute();
}

export async function setGrant(db: Queryable, resourceId: string, organizationId: string, granted: boolean) {
  if (granted) await db.insertInto('resource_grants').values({ resource_id: resourceId, organization_id: organizationId }).execute();
  else await db.deleteFrom('resource_grants').where('resource_id', '=', resourceId).where('organization_id', '=', organizationId).execute();
}
