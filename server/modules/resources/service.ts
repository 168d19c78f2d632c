/**
 * Resources are global (the operator's catalogue of downloads), so their rules target the
 * operator organization; a grant also targets the organization it is granted to.
 */
import { randomUUID } from 'node:crypto';
import type { Db, Queryable } from '../../db/database';
import type { RequestActor } from '../../auth/actor';
import { can, canGlobally, canOnOperator, resourceAbilities, type Action } from '../../../common/policy';
import type { Resource, ResourceInput, ResourceSort } from '../../../common/schemas/resource';
import { authorize, authorizeGlobal, authorizeOperator } from '../../access/authorize';
import { CATALOGUE_REFUSAL } from '../../access/target-guard';
import { loadTarget } from '../../access/tree';
import { audit } from '../../db/audit';
import { lockRow } from '../../db/lock';
import { conflict, forbidden, notFound } from '../../errors';
import * as repo from './repository';
import { csvDisposition, csvStream, journalExport, type CsvColumn, exportedOrganizationName } from '../../http/csv';

const MISSING = 'Resource not found.';

/**
 * A resource as this caller is shown it, with what they may do to it (common/policy.ts). Whoever may not manage
 * resources gets no server location and, of its grants, only the organization they look at (`lookingAt`: the
 * path's organization, else their own), so a customer does not learn the vendor's other customers.
 */
function shown(actor: RequestActor, resource: repo.ResourceRecord, lookingAt = actor.organization_id): Resource {
  const abilities = resourceAbilities(actor);
  if (canGlobally(actor, 'resource.manage')) return { ...resource, abilities };
  return { ...resource, location: null, organizations: resource.organizations.filter((o) => o.organization_id === lookingAt), abilities };
}

/** The catalogue is for operator staff only (SPEC.md §2: admin Resources, operator organization only). */
function requireOperatorStaff(actor: RequestActor) {
  authorizeGlobal(actor, 'resource.read', CATALOGUE_REFUSAL);
}

function requireOnOperator(actor: RequestActor, action: Action) {
  requireOperatorStaff(actor);
  return authorizeOperator(actor, action, 'Your roles do not allow this here.');
}

export async function listResources(db: Db, actor: RequestActor, query: { filter?: string; sort?: ResourceSort }) {
  requireOperatorStaff(actor);
  return (await repo.listResources(db, query.filter, query.sort)).map((r) => shown(actor, r));
}

export async function getResource(db: Db, actor: RequestActor, resourceId: string) {
  requireOperatorStaff(actor);
  const resource = await repo.findResource(db, resourceId);
  if (!resource) throw notFound(MISSING);
  return shown(actor, resource);
}

export async function listForOrganization(db: Db, actor: RequestActor, organizationId: string, sort?: ResourceSort) {
  await authorize(db, actor, 'read', organizationId);
  return (await repo.listResourcesOf(db, organizationId, sort)).map((r) => shown(actor, r, organizationId));
}

/**
 * The resources catalogue as CSV (docs/decisions.md "CSV export"), as `listResources` reads it (the
 * catalogue is one unpaged list: one batch); journaled in the caller's organization's journal.
 */
export async function exportResources(db: Db, actor: RequestActor, query: { filter?: string; sort?: ResourceSort }, now: () => Date) {
  const rows = await listResources(db, actor, query);
  const onEnd = journalExport(db, actor, actor.organization_id, 'the resources', query, now);
  return { body: csvStream(RESOURCE_COLUMNS, oneBatch(rows), onEnd), disposition: csvDisposition('resources', 'all', now()) };
}

/** The resources an organization may download as CSV, as `listForOrganization` reads it; journaled in its journal. */
export async function exportForOrganization(db: Db, actor: RequestActor, organizationId: string, sort: ResourceSort | undefined, now: () => Date) {
  const rows = await listForOrganization(db, actor, organizationId, sort);
  const name = await exportedOrganizationName(db, organizationId);
  const onEnd = journalExport(db, actor, organizationId, `the resources of ${name}`, { sort }, now);
  return { body: csvStream(RESOURCE_COLUMNS, oneBatch(rows), onEnd), disposition: csvDisposition('resources', name, now()) };
}

async function* oneBatch<T>(rows: T[]) {
  yield rows;
}

const RESOURCE_COLUMNS: CsvColumn<Resource>[] = [
  { header: 'resource_id', value: (r) => r.resource_id },
  { header: 'ordinal', value: (r) => r.ordinal },
  { header: 'resource_name', value: (r) => r.resource_name },
  { header: 'resource_type', value: (r) => r.resource_type },
  { header: 'resource_access', value: (r) => r.resource_access },
  { header: 'path_pattern', value: (r) => r.path_pattern },
  { header: 'location', value: (r) => r.location },
  { header: 'description', value: (r) => r.description },
  { header: 'organizations', value: (r) => r.organizations.map((o) => o.organization_name).join('; ') },
];

async function checkOrdinal(db: Queryable, ordinal: number, exceptId?: string) {
  if (await repo.ordinalTaken(db, ordinal, exceptId)) {
    throw conflict(`Ordinal ${ordinal} is taken by another resource; ordinals keep the resources in one order.`, 'ordinal');
  }
}

export async function createResource(db: Db, actor: RequestActor, input: ResourceInput, now: Date) {
  const operatorId = requireOnOperator(actor, 'resource.create');
  const resourceId = randomUUID();
  await db.transaction().execute(async (tx) => {
    const ordinal = input.ordinal ?? (await repo.nextOrdinal(tx));
    await checkOrdinal(tx, ordinal);
    await repo.insertResource(tx, { resource_id: resourceId, ...input, ordinal, description: input.description ?? null });
    await audit(tx, { reason: 'RESOURCE_CREATED', message: `Created resource ${input.resource_name} (${input.path_pattern}).`, organization_id: operatorId, member_email: actor.email, now });
  });
  return shown(actor, (await repo.findResource(db, resourceId))!);
}

export async function updateResource(db: Db, actor: RequestActor, resourceId: string, input: ResourceInput, now: Date) {
  const operatorId = requireOnOperator(actor, 'resource.update');
  await db.transaction().execute(async (tx) => {
    const existing = await repo.findResource(tx, resourceId);
    if (!existing) throw notFound(MISSING);
    const ordinal = input.ordinal ?? existing.ordinal;
    const changes = { ...input, ordinal, description: input.description ?? null };
    // Saving what is already there changes nothing, so it writes nothing and journals nothing.
    if (Object.entries(changes).every(([key, value]) => existing[key as keyof typeof existing] === value)) return;
    await checkOrdinal(tx, ordinal, resourceId);
    await repo.updateResource(tx, resourceId, changes);
    await audit(tx, { reason: 'RESOURCE_SAVED', message: `Saved resource ${input.resource_name} (${input.path_pattern}).`, organization_id: operatorId, member_email: actor.email, now });
  });
  return shown(actor, (await repo.findResource(db, resourceId))!);
}

export async function deleteResource(db: Db, actor: RequestActor, resourceId: string, now: Date) {
  const operatorId = requireOnOperator(actor, 'resource.delete');
  await db.transaction().execute(async (tx) => {
    if (!(await lockRow(tx, 'resources', 'resource_id', resourceId))) throw notFound(MISSING);
    const existing = await repo.findResource(tx, resourceId);
    if (!existing) throw notFound(MISSING);
    await repo.deleteResource(tx, resourceId);
    await audit(tx, { reason: 'RESOURCE_REMOVED', message: `Removed resource ${existing.resource_name} (${existing.path_pattern}).`, organization_id: operatorId, member_email: actor.email, now });
  });
}

/**
 * Grants or revokes a RESTRICTED resource for an organization. Two roles reach this one call
 * (SPEC.md §6): operator SUPERVISOR/ADMINISTRATOR (scope not MANAGED) on the resource screen, and
 * SUPERVISOR/DEVOPS toggling the organization's access on the organization screen.
 */
export async function setGrant(db: Db, actor: RequestActor, resourceId: string, organizationId: string, granted: boolean, now: Date) {
  requireOperatorStaff(actor);
  const organization = await loadTarget(db, organizationId).catch(() => {
    throw notFound('Organization not found.');
  });
  if (!canOnOperator(actor, 'resource.grant') && !can(actor, 'resource.toggleOrganization', organization)) {
    throw forbidden('Your roles do not allow granting resources.');
  }
  await db.transaction().execute(async (tx) => {
    // Grants of one resource are decided one after the other, so a repeated call sees the first one's grant.
    if (!(await lockRow(tx, 'resources', 'resource_id', resourceId))) throw notFound(MISSING);
    const resource = await repo.findResource(tx, resourceId);
    if (!resource) throw notFound(MISSING);
    if (resource.resource_access !== 'RESTRICTED') {
      throw conflict(`Only RESTRICTED resources are granted to organizations; ${resource.resource_name} is ${resource.resource_access}.`);
    }
    const has = resource.organizations.some((o) => o.organization_id === organizationId);
    if (has && granted) throw conflict(`${resource.resource_name} is already granted to this organization.`);
    if (!has && !granted) throw conflict(`${resource.resource_name} is not granted to this organization.`);
    await repo.setGrant(tx, resourceId, organizationId, granted);
    await audit(tx, {
      reason: granted ? 'RESOURCE_GRANTED' : 'RESOURCE_REVOKED',
      message: `${granted ? 'Granted' : 'Revoked'} resource ${resource.resource_name} ${granted ? 'to' : 'from'} this organization.`,
      organization_id: organizationId,
      member_email: actor.email,
      now,
    });
  });
  return shown(actor, (await repo.findResource(db, resourceId))!);
}
