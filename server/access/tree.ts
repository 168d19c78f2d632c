/**
 * The organization tree, for the role-scope rule: which organizations an organization manages
 * (its descendants through parent_organization) and which ones an actor may read.
 * Recursive CTEs, so SQLite and PostgreSQL answer it in one query each.
 */
import { sql } from 'kysely';
import type { Queryable } from '../db/database';
import type { Actor, TargetOrganization } from '../../common/policy';
import { notFound } from '../errors';
import { keptFor } from '../db/kept';
import type { Versions } from '../db/versions';
import { isPlainText } from '../../common/schemas/text';

/** What the tree's caches are kept under: the tree's version, read with the request's (db/versions.ts). */
type WithVersions = { versions?: Versions };
const treeStamp = (actor: WithVersions | undefined) => (actor?.versions ? `t${actor.versions.tree}` : undefined);

/**
 * The target with its ancestors, nearest first; 404 when there is no such organization. From the parent map kept
 * for the tree's version the request read (db/kept.ts, `parentMap`): only adding, removing or moving organizations
 * changes it, so a request reads no statement for it. Without versions (no request), one recursive query.
 */
export async function loadTarget(db: Queryable, organizationId: string, actor?: WithVersions): Promise<TargetOrganization> {
  const parentOf = await parentMap(db, actor);
  if (!parentOf) return queryTarget(db, organizationId);
  if (!parentOf.has(organizationId)) throw notFound('Organization not found.');
  return { organization_id: organizationId, ancestor_ids: ancestorsIn(parentOf, organizationId) };
}

async function queryTarget(db: Queryable, organizationId: string): Promise<TargetOrganization> {
  // An id no organization can have (a control character, which PostgreSQL refuses to compare) is missing.
  if (!isPlainText(organizationId)) throw notFound('Organization not found.');
  const rows = await db
    .withRecursive('chain(organization_id, parent_organization_id, depth)', (qb) =>
      qb
        .selectFrom('organizations')
        .select(['organization_id', 'parent_organization_id', sql<number>`0`.as('depth')])
        .where('organization_id', '=', organizationId)
        .unionAll((u) =>
          u
            .selectFrom('organizations as o')
            .innerJoin('chain as c', 'c.parent_organization_id', 'o.organization_id')
            // The depth bound keeps a corrupted cycle from looping for ever.
            .select(['o.organization_id', 'o.parent_organization_id', sql<number>`c.depth + 1`.as('depth')])
            .where('c.depth', '<', 64),
        ),
    )
    .selectFrom('chain')
    .select(['organization_id', 'depth'])
    .orderBy('depth')
    .execute();
  if (rows.length === 0) throw notFound('Organization not found.');
  return { organization_id: organizationId, ancestor_ids: rows.slice(1).map((r) => r.organization_id) };
}

/**
 * Ids of the organizations where some role of the actor applies (DECISIONS.md "role scopes"),
 * or 'all' for operator staff whose scope reaches every organization.
 */
export async function readableOrganizationIds(db: Queryable, actor: Actor & WithVersions): Promise<'all' | string[]> {
  return keptFor<'all' | string[]>(db, 'readable').through(readableKey(actor), treeStamp(actor), 0, () => queryReadable(db, actor));
}

/**
 * Actors with the same assignments (and read-only or not) may do the same everywhere (abilities in kept pages). Their role
 * is part of it; which organizations they read depends on organization and scope alone (readableKey).
 */
export const rolesKey = (actor: Actor) =>
  actor.roles.map((a) => `${a.organization_id}/${a.organization_role}/${a.role}/${a.scope}`).sort().join(' ')
  // A read-only API key may do less than a member with its roles (policy.ts): its abilities differ.
  + (actor.api_key?.read_only ? ' read-only' : '');

/** Actors whose assignments sit in the same organizations with the same scopes read the same organizations. */
const readableKey = (actor: Actor) => actor.roles.map((a) => `${a.organization_id}/${a.organization_role}/${a.scope}`).sort().join(' ');

async function queryReadable(db: Queryable, actor: Actor): Promise<'all' | string[]> {
  const own = actor.roles.filter((a) => a.scope !== 'MANAGED').map((a) => a.organization_id);
  const managing = actor.roles.filter((a) => a.scope !== 'ORGANIZATION');
  if (managing.some((a) => a.organization_role === 'OPERATOR')) return 'all';
  const roots = [...new Set(managing.map((a) => a.organization_id))];
  if (roots.length === 0) return [...new Set(own)];
  const descendants = await db
    .withRecursive('below(organization_id, depth)', (qb) =>
      qb
        .selectFrom('organizations')
        .select(['organization_id', sql<number>`0`.as('depth')])
        .where('parent_organization_id', 'in', roots)
        .unionAll((u) =>
          u
            .selectFrom('organizations as o')
            .innerJoin('below as b', 'b.organization_id', 'o.parent_organization_id')
            .select(['o.organization_id', sql<number>`b.depth + 1`.as('depth')])
            .where('b.depth', '<', 64),
        ),
    )
    .selectFrom('below')
    .select('organization_id')
    .execute();
  return [...new Set([...own, ...descendants.map((d) => d.organization_id)])];
}

/**
 * Targets for many organizations at once (one page of a list), from the same parent map: no query per row.
 */
export async function loadTargets(db: Queryable, organizationIds: string[], actor?: WithVersions): Promise<Map<string, TargetOrganization>> {
  const targets = new Map<string, TargetOrganization>();
  if (organizationIds.length === 0) return targets;
  const parentOf = (await parentMap(db, actor)) ?? (await readParents(db));
  for (const id of organizationIds) targets.set(id, { organization_id: id, ancestor_ids: ancestorsIn(parentOf, id) });
  return targets;
}

/**
 * Every organization's parent, read once per version of the tree (5,000 rows at a vendor's scale), not for every
 * request; undefined without versions to keep it under.
 */
async function parentMap(db: Queryable, actor: WithVersions | undefined): Promise<Map<string, string | null> | undefined> {
  const stamp = treeStamp(actor);
  return stamp === undefined ? undefined : keptFor<Map<string, string | null>>(db, 'parents').through('all', stamp, 0, () => readParents(db));
}

async function readParents(db: Queryable): Promise<Map<string, string | null>> {
  const rows = await db.selectFrom('organizations').select(['organization_id', 'parent_organization_id']).execute();
  return new Map(rows.map((r) => [r.organization_id, r.parent_organization_id]));
}

/** The ancestors of `id`, nearest first; the bound keeps a corrupted cycle from looping for ever. */
function ancestorsIn(parentOf: Map<string, string | null>, id: string): string[] {
  const ancestors: string[] = [];
  for (let p = parentOf.get(id); p && ancestors.length < 64; p = parentOf.get(p)) ancestors.push(p);
  return ancestors;
}
