/**
 * Organization API keys (issue 32, docs/decisions.md "API keys"): listed, created and revoked by those the policy
 * lets manage them (`apiKey.manage`). A key holds no role its creator could not grant (common/policy.ts canGrant,
 * the rule of the Roles tab); its secret is answered once and stored only as its hash.
 */
import { randomUUID } from 'node:crypto';
import type { OrganizationRole } from '../../../common/enums';
import { assignableRoles, canGrant, type TargetOrganization } from '../../../common/policy';
import { MAX_KEY_DAYS, type ApiKey, type ApiKeyBody, type ApiKeyRole } from '../../../common/schemas/api-keys';
import type { RequestActor } from '../../auth/actor';
import { hashKeySecret, newKeySecret } from '../../auth/api-key-secret';
import { authorize, authorizeGlobal } from '../../access/authorize';
import { readableOrganizationIds } from '../../access/tree';
import { audit, type AuditSubject } from '../../db/audit';
import type { Db } from '../../db/database';
import { badRequest, conflict, forbidden, notFound } from '../../errors';
import * as repo from './repository';

const MISSING = 'API key not found.';
const DAY_MS = 86_400_000;

function shown(row: Awaited<ReturnType<typeof repo.listKeys>>[number]): ApiKey {
  return {
    api_key_id: row.api_key_id, organization_id: row.organization_id, organization_name: row.organization_name, name: row.name,
    roles: JSON.parse(row.roles) as ApiKeyRole[], read_only: row.read_only === 1, date_created: row.date_created,
    created_by: { name: row.created_by_name, email: row.created_by_email }, date_expires: row.date_expires,
    date_last_used: row.date_last_used, last_used_from: row.last_used_from, date_revoked: row.date_revoked,
  };
}

const subjectOf = (key: ApiKey): AuditSubject => ({
  type: 'api_key', id: key.api_key_id, details: { name: key.name, date_expires: key.date_expires, read_only: key.read_only },
});

/** GET /organizations/{id}/api-keys: the organization's keys, revoked ones included, newest first. */
export async function listKeys(db: Db, actor: RequestActor, organizationId: string): Promise<ApiKey[]> {
  await authorize(db, actor, 'apiKey.manage', organizationId);
  return (await repo.listKeys(db, [organizationId])).map(shown);
}

/** GET /api-keys: the keys of every organization the vendor's supervisor reads (the admin area's list). */
export async function listAllKeys(db: Db, actor: RequestActor): Promise<ApiKey[]> {
  authorizeGlobal(actor, 'apiKey.review', 'Only the vendor\'s supervisors see the API keys of all organizations.');
  return (await repo.listKeys(db, await readableOrganizationIds(db, actor))).map(shown);
}

/** 400 naming the field unless the expiry is ahead of `now` by at most MAX_KEY_DAYS days. */
function checkExpiry(dateExpires: string, now: Date): string {
  const at = Date.parse(dateExpires);
  if (at <= now.getTime()) throw badRequest("Invalid body field 'date_expires': must be in the future.", 'date_expires');
  if (at > now.getTime() + MAX_KEY_DAYS * DAY_MS) {
    throw badRequest(`Invalid body field 'date_expires': must be at most ${MAX_KEY_DAYS} days ahead.`, 'date_expires');
  }
  return new Date(at).toISOString();
}

/** 400 for a role no member of the organization may hold, 403 for one the actor may not grant there. */
function checkRoles(actor: RequestActor, roles: ApiKeyRole[], target: TargetOrganization, organization: { organization_name: string; organization_role: OrganizationRole }) {
  for (const { role, scope } of roles) {
    if (!assignableRoles(organization.organization_role).includes(role)) {
      throw badRequest(`Invalid body field 'roles': ${role} can be held only in the operator organization.`, 'roles');
    }
    const change = { action: 'role.assign' as const, role, scope, member_id: '', member_organization_role: organization.organization_role };
    if (!canGrant(actor, change, target)) {
      throw forbidden(`Your roles do not allow you to grant ${role} (${scope}) in ${organization.organization_name}, so no key of yours may hold it.`);
    }
  }
}

/** POST /organizations/{id}/api-keys: the key and its secret, answered this once. */
export async function createKey(db: Db, actor: RequestActor, organizationId: string, body: ApiKeyBody, now: Date) {
  const target = await authorize(db, actor, 'apiKey.manage', organizationId);
  const organization = await repo.organizationOf(db, organizationId);
  if (!organization) throw notFound('Organization not found.');
  const dateExpires = checkExpiry(body.date_expires, now);
  checkRoles(actor, body.roles, target, organization);
  const secret = newKeySecret();
  const id = randomUUID();
  await db.transaction().execute(async (tx) => {
    await repo.insertKey(tx, {
      api_key_id: id, organization_id: organizationId, name: body.name, secret_hash: hashKeySecret(secret), roles: JSON.stringify(body.roles),
      read_only: body.read_only ? 1 : 0, created_by: actor.member_id, created_by_name: actor.name, created_by_email: actor.email,
      date_created: now.toISOString(), date_expires: dateExpires, date_last_used: null, last_used_from: null, date_revoked: null,
    });
    const [key] = (await repo.listKeys(tx, [organizationId], id)).map(shown);
    const roles = body.roles.map((r) => `${r.role} (${r.scope})`).join(', ');
    await audit(tx, {
      reason: 'API_KEY_CREATED', organization_id: organizationId, member_email: actor.email, now, subject: subjectOf(key),
      message: `Created API key '${body.name}' with ${roles}${body.read_only ? ', read only' : ''}, expiring ${dateExpires}.`,
    });
  });
  const [key] = (await repo.listKeys(db, [organizationId], id)).map(shown);
  return { ...key, secret };
}

/** DELETE /organizations/{id}/api-keys/{keyId}: revoked, kept in the list; of two revocations at once one wins. */
export async function revokeKey(db: Db, actor: RequestActor, organizationId: string, keyId: string, now: Date): Promise<void> {
  await authorize(db, actor, 'apiKey.manage', organizationId);
  const [key] = (await repo.listKeys(db, [organizationId], keyId)).map(shown);
  if (!key) throw notFound(MISSING);
  await db.transaction().execute(async (tx) => {
    if (!(await repo.revokeKey(tx, organizationId, keyId, now.toISOString()))) throw conflict(`API key '${key.name}' is already revoked.`);
    await audit(tx, {
      reason: 'API_KEY_REVOKED', organization_id: organizationId, member_email: actor.email, now, subject: subjectOf(key),
      message: `Revoked API key '${key.name}'.`,
    });
  });
}
