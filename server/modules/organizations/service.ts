/**
 * Organization rules: reading with the caller's applying roles attached (the shell's sidebar
 * needs them), creating, saving, banning and unbanning, each change audited in its transaction.
 */
import { randomUUID } from 'node:crypto';
import type { Updateable } from 'kysely';
import type { Db, Queryable } from '../../db/database';
import type { OrganizationsTable } from '../../db/schema';
import { abilitiesOn, applies, can, OBJECT_ACTIONS, organizationRefusal, type Action, type Actor, type TargetOrganization } from '../../../common/policy';
import { z } from 'zod';
import { organizationSchema, type Organization, type OrganizationCreate, type OrganizationSort, type OrganizationUpdate } from '../../../common/schemas/organization';
import type { RequestActor } from '../../auth/actor';
import type { OrganizationWithParent } from './repository';
import * as repo from './repository';
import { loadTarget, loadTargets, readableOrganizationIds } from '../../access/tree';
import { authorize, refuseWhen } from '../../access/authorize';
import { audit, type AuditSubject } from '../../db/audit';
import { lockRow } from '../../db/lock';
import type { Versions } from '../../db/versions';
import { encodeJson, type JsonPage } from '../../http/kept-answers';
import { badRequest, conflict, forbidden } from '../../errors';
import { csvDisposition, csvStream, journalExport, offsetBatches, type CsvColumn } from '../../http/csv';

function toOrganization(actor: Actor, row: OrganizationWithParent, target: TargetOrganization): Organization {
  return {
    organization_id: row.organization_id,
    organization_name: row.organization_name,
    organization_role: row.organization_role,
    parent_organization: row.parent_organization_id,
    parent_organization_name: row.parent_organization_name,
    website: row.website,
    logo_url: row.logo_url,
    address: row.address,
    domains: row.domains,
    ban_note: row.ban_note,
    date_organization_banned: row.date_organization_banned,
    roles: actor.roles
      .filter((a) => applies(a, target))
      .map(({ organization_id, role, scope }) => ({ organization_id, role, scope })),
    abilities: abilitiesOn(actor, OBJECT_ACTIONS.organization, target, (action) => organizationRefusal(actor, action, row)),
  };
}

const organizations = z.array(organizationSchema);

/** One page of the organizations the actor can read, as JSON; each shows the actor's own applying roles. */
export async function listForActor(
  db: Queryable, actor: Actor & { versions?: Versions; member_id: string }, query: { filter?: string; offset: number; limit: number; sort?: OrganizationSort },
): Promise<JsonPage> {
  const readable = await readableOrganizationIds(db, actor);
  const { rows, total } = await repo.listOrganizations(db, readable, query);
  const targets = await loadTargets(db, rows.map((r) => r.organization_id), actor);
  return { json: encodeJson(organizations, rows.map((row) => toOrganization(actor, row, targets.get(row.organization_id)!))), total };
}

/**
 * The organization list as CSV (docs/decisions.md "CSV export"): every organization the list shows
 * under its filter and order, a thousand at a time, with the caller's roles that apply to it as the
 * list shows them. Journaled in the caller's organization's journal.
 */
export async function exportForActor(db: Db, actor: RequestActor, query: { filter?: string; sort?: OrganizationSort }, now: () => Date) {
  const readable = await readableOrganizationIds(db, actor);
  const batches = offsetBatches(async (offset, limit) => {
    const { rows } = await repo.listOrganizations(db, readable, { ...query, offset, limit });
    const targets = await loadTargets(db, rows.map((r) => r.organization_id), actor);
    return rows.map((row) => toOrganization(actor, row, targets.get(row.organization_id)!));
  });
  const onEnd = journalExport(db, actor, actor.organization_id, 'the organizations', query, now);
  return { body: csvStream(ORGANIZATION_COLUMNS, batches, onEnd), disposition: csvDisposition('organizations', 'all', now()) };
}

const ORGANIZATION_COLUMNS: CsvColumn<Organization>[] = [
  { header: 'organization_id', value: (o) => o.organization_id },
  { header: 'organization_name', value: (o) => o.organization_name },
  { header: 'organization_role', value: (o) => o.organization_role },
  { header: 'parent_organization', value: (o) => o.parent_organization },
  { header: 'parent_organization_name', value: (o) => o.parent_organization_name },
  { header: 'website', value: (o) => o.website },
  { header: 'address', value: (o) => o.address },
  { header: 'domains', value: (o) => o.domains.join('; ') },
  { header: 'banned', value: (o) => o.date_organization_banned !== null },
  { header: 'date_organization_banned', value: (o) => o.date_organization_banned },
  { header: 'ban_note', value: (o) => o.ban_note },
  { header: 'your_roles', value: (o) => o.roles.map((r) => `${r.role} (${r.scope})`).join('; ') },
];

/** One organization (GET /api/organizations/{id}) with the caller's roles and abilities there. */
export async function getForActor(db: Queryable, actor: Actor & { versions?: Versions; member_id: string }, organizationId: string): Promise<Organization> {
  const target = await authorize(db, actor, 'read', organizationId);
  const row = await repo.findOrganization(db, organizationId);
  return toOrganization(actor, row!, target);
}

/**
 * Where an organization may sit: the actor must be allowed the action on it as a child of the
 * parent (the same rule as on any managed organization), and customers have no children.
 * A parent the actor can neither read nor act below reads as missing, like any other id.
 */
async function placeBelow(db: Queryable, actor: Actor, action: Action, organizationId: string, parentId: string) {
  const parentTarget = await loadTarget(db, parentId).catch(() => null);
  const target = { organization_id: organizationId, ancestor_ids: parentTarget ? [parentId, ...parentTarget.ancestor_ids] : [] };
  if (!parentTarget || (!can(actor, action, target) && !can(actor, 'read', parentTarget))) {
    throw badRequest('Parent organization not found.', 'parent_organization');
  }
  if (!can(actor, action, target)) throw forbidden('Your roles do not allow placing an organization below this parent.');
  if (target.ancestor_ids.includes(organizationId)) throw badRequest('An organization cannot be placed below itself.', 'parent_organization');
  const parent = (await repo.findOrganization(db, parentId))!;
  if (parent.organization_role === 'CUSTOMER') {
    throw badRequest(`${parent.organization_name} is a customer organization; a parent must be a partner or the operator.`, 'parent_organization');
  }
  return target;
}

async function refuseDuplicates(db: Queryable, actor: Actor, name: string | undefined, domains: string[] | undefined, exceptId?: string) {
  if (name && (await repo.organizationNameTaken(db, name, exceptId))) throw conflict(`An organization named ${name} already exists.`, 'organization_name');
  // A domain trusted by two organizations admits nobody (docs/decisions.md), so a second claim is refused.
  const taken = await repo.domainsTrustedElsewhere(db, domains ?? [], exceptId);
  if (taken.length > 0) throw conflict(`Another organization already trusts ${taken.join(', ')}.`, 'domains');
  // Trusting a domain decides where its new people land: only someone who can see every member
  // already using it may claim it, so a partner cannot capture the operator's own staff domain.
  const foreign = await repo.domainsOfMembersOutside(db, domains ?? [], await readableOrganizationIds(db, actor));
  if (foreign.length > 0) {
    throw forbidden(`${foreign.join(', ')} is the email domain of members of an organization you do not manage, so you cannot trust it.`);
  }
}

/**
 * POST /api/organizations. A customer goes below the chosen parent (default: the creator's
 * organization); a partner always below the creator's organization, as the disabled parent
 * selector of SPEC.md §5 shows.
 */
export async function createOrganization(db: Db, actor: RequestActor, input: OrganizationCreate, now: Date): Promise<Organization> {
  const parentId = (input.organization_role === 'CUSTOMER' && input.parent_organization) || actor.organization_id;
  const organizationId = randomUUID();
  const target = await placeBelow(db, actor, 'organization.create', organizationId, parentId);
  await db.transaction().execute(async (tx) => {
    await refuseDuplicates(tx, actor, input.organization_name, input.domains);
    await repo.insertOrganization(
      tx,
      {
        organization_id: organizationId,
        organization_name: input.organization_name,
        organization_role: input.organization_role,
        parent_organization_id: parentId,
        website: input.website ?? null,
        logo_url: input.logo_url ?? null,
        address: input.address ?? null,
        ban_note: null,
        date_organization_banned: null,
        date_created: now.toISOString(),
      },
      input.domains ?? [],
    );
    const message = `Created ${input.organization_role.toLowerCase()} organization ${input.organization_name}.`;
    await audit(tx, { reason: 'ORGANIZATION_CREATED', message, organization_id: organizationId, member_email: actor.email, now });
  });
  return toOrganization(actor, (await repo.findOrganization(db, organizationId))!, target);
}

const SAVED_FIELDS = ['organization_name', 'website', 'logo_url', 'address'] as const;

/**
 * PUT /api/organizations/{id}. The role is set at creation; the parent changes only for
 * customers and is ignored for others (their parent selector is disabled, SPEC.md §5).
 */
export async function saveOrganization(db: Db, actor: RequestActor, organizationId: string, input: OrganizationUpdate, now: Date) {
  let target = await authorize(db, actor, 'organization.save', organizationId);
  const row = (await repo.findOrganization(db, organizationId))!;
  if (input.organization_role && input.organization_role !== row.organization_role) {
    throw badRequest('The role of an organization is set when it is created and cannot change.', 'organization_role');
  }
  const newParent = row.organization_role === 'CUSTOMER' && input.parent_organization && input.parent_organization !== row.parent_organization_id
    ? input.parent_organization
    : undefined;
  if (newParent) target = await placeBelow(db, actor, 'organization.save', organizationId, newParent);

  const changes: Updateable<OrganizationsTable> = {};
  for (const field of SAVED_FIELDS) {
    const value = input[field];
    if (value !== undefined && value !== row[field]) Object.assign(changes, { [field]: value });
  }
  const domainsChanged = input.domains !== undefined && [...input.domains].sort().join(' ') !== [...row.domains].sort().join(' ');
  const changed = [...Object.keys(changes), ...(newParent ? ['parent_organization'] : []), ...(domainsChanged ? ['domains'] : [])];
  // Saving what is already there changes nothing, so it writes nothing and journals nothing.
  if (changed.length === 0) return toOrganization(actor, row, target);
  await db.transaction().execute(async (tx) => {
    await refuseDuplicates(tx, actor, changes.organization_name ?? undefined, domainsChanged ? input.domains : undefined, organizationId);
    await repo.updateOrganization(tx, organizationId, { ...changes, ...(newParent ? { parent_organization_id: newParent } : {}) });
    if (domainsChanged) await repo.replaceDomains(tx, organizationId, input.domains!);
    const what = ` (${changed.join(', ')})`;
    const name = changes.organization_name ?? row.organization_name;
    await audit(tx, { reason: 'ORGANIZATION_SAVED', message: `Saved organization ${name}${what}.`, organization_id: organizationId, member_email: actor.email, now });
  });
  return toOrganization(actor, (await repo.findOrganization(db, organizationId))!, target);
}

/** POST /api/organizations/{id}/ban?note. Its members are refused from their very next call (auth/actor.ts). */
export async function banOrganization(db: Db, actor: RequestActor, organizationId: string, note: string | undefined, now: Date) {
  const target = await authorize(db, actor, 'organization.ban', organizationId);
  await db.transaction().execute(async (tx) => {
    await lockRow(tx, 'organizations', 'organization_id', organizationId);
    const row = (await repo.findOrganization(tx, organizationId))!;
    refuseWhen(organizationRefusal(actor, 'organization.ban', row));
    if (row.date_organization_banned) throw conflict(`${row.organization_name} is already banned.`);
    const banNote = note?.trim() || null;
    await repo.updateOrganization(tx, organizationId, { date_organization_banned: now.toISOString(), ban_note: banNote });
    const message = `Banned organization ${row.organization_name}${banNote ? `: ${banNote}` : '.'}`;
    await audit(tx, { reason: 'ORGANIZATION_BANNED', message, organization_id: organizationId, member_email: actor.email, now, subject: organizationSubject(row) });
  });
  return toOrganization(actor, (await repo.findOrganization(db, organizationId))!, target);
}

/** POST /api/organizations/{id}/unban. */
export async function unbanOrganization(db: Db, actor: RequestActor, organizationId: string, now: Date) {
  const target = await authorize(db, actor, 'organization.unban', organizationId);
  await db.transaction().execute(async (tx) => {
    await lockRow(tx, 'organizations', 'organization_id', organizationId);
    const row = (await repo.findOrganization(tx, organizationId))!;
    if (!row.date_organization_banned) throw conflict(`${row.organization_name} is not banned.`);
    await repo.updateOrganization(tx, organizationId, { date_organization_banned: null, ban_note: null });
    await audit(tx, { reason: 'ORGANIZATION_UNBANNED', message: `Unbanned organization ${row.organization_name}.`, organization_id: organizationId, member_email: actor.email, now, subject: organizationSubject(row) });
  });
  return toOrganization(actor, (await repo.findOrganization(db, organizationId))!, target);
}

/** An organization as events name it (common/events.ts). */
function organizationSubject(row: { organization_id: string; organization_name: string }): AuditSubject {
  return { type: 'organization', id: row.organization_id, details: { organization_name: row.organization_name } };
}
