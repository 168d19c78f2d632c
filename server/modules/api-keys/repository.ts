/** The queries of organization API keys' routes (issue 32); the key sign-in's own are auth/api-key-store.ts's. */
import type { Queryable } from '../../db/database';
import type { ApiKeysTable } from '../../db/schema';

const LISTED = [
  'k.api_key_id', 'k.organization_id', 'o.organization_name', 'k.name', 'k.roles', 'k.read_only', 'k.date_created',
  'k.created_by_name', 'k.created_by_email', 'k.date_expires', 'k.date_last_used', 'k.last_used_from', 'k.date_revoked',
] as const;

/** Keys of `organizations` ('all': every organization), newest first; `keyId` narrows to one. */
export async function listKeys(db: Queryable, organizations: 'all' | string[], keyId?: string) {
  if (organizations !== 'all' && organizations.length === 0) return [];
  let q = db.selectFrom('api_keys as k').innerJoin('organizations as o', 'o.organization_id', 'k.organization_id').select(LISTED);
  if (organizations !== 'all') q = q.where('k.organization_id', 'in', organizations);
  if (keyId !== undefined) q = q.where('k.api_key_id', '=', keyId);
  return q.orderBy('k.date_created', 'desc').orderBy('k.api_key_id').execute();
}

export async function insertKey(db: Queryable, row: ApiKeysTable): Promise<void> {
  await db.insertInto('api_keys').values(row).execute();
}

/** Revokes the key unless it is already: the one winner of two revocations at once is the one that changed a row. */
export async function revokeKey(db: Queryable, organizationId: string, keyId: string, at: string): Promise<boolean> {
  const result = await db.updateTable('api_keys').set({ date_revoked: at })
    .where('api_key_id', '=', keyId).where('organization_id', '=', organizationId).where('date_revoked', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}


/** The organization a key is made in: its name and role (which roles a member there may hold). */
export async function organizationOf(db: Queryable, organizationId: string) {
  return db.selectFrom('organizations').select(['organization_name', 'organization_role']).where('organization_id', '=', organizationId).executeTakeFirst();
}
