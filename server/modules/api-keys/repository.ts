/** Every query of organization API keys (issue 32): the list, the changes, and what the key sign-in reads. */
import { sql } from 'kysely';
import type { Db, Queryable } from '../../db/database';
import { readRows } from '../../db/database';
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

/** One statement text per number of path organizations: the tree's version, the key's organization's and its creator's. */
const versionTexts = new Map<number, string>();
function versionText(count: number): string {
  let text = versionTexts.get(count);
  if (!text) {
    const marks = Array.from({ length: count }, () => '?').join(', ');
    text = [
      `select 'tree' as kind, '' as organization_id, epoch as version from organization_tree where id = 1`,
      `select 'key', c.organization_id, c.version from api_keys k join organization_counters c on c.organization_id = k.organization_id where k.secret_hash = ?`,
      `select 'creator', c.organization_id, c.version from api_keys k join members m on m.member_id = k.created_by
        join organization_counters c on c.organization_id = m.organization_id where k.secret_hash = ?`,
      ...(count ? [`select 'path', organization_id, version from organization_counters where organization_id in (${marks})`] : []),
    ].join(' union all ');
    versionTexts.set(count, text);
  }
  return text;
}

/**
 * The versions a key's call depends on, in one statement (db/versions.ts): the tree's, the key's organization's
 * (moved by creating or revoking a key, a ban, a role change there), its creator's organization's (their ban,
 * roles, removal) and the path's. No 'key' row: no key has that hash.
 */
export function readKeyVersions(db: Queryable, hash: string, pathIds: readonly string[]) {
  return readRows(db, versionText(pathIds.length), [hash, hash, ...pathIds]);
}

/** The key by its hash, with its organization and its creator as they are now (null fields: the creator is gone). */
export async function findKeyByHash(db: Queryable, hash: string) {
  return db.selectFrom('api_keys as k')
    .innerJoin('organizations as o', 'o.organization_id', 'k.organization_id')
    .leftJoin('members as m', 'm.member_id', 'k.created_by')
    .leftJoin('organizations as co', 'co.organization_id', 'm.organization_id')
    .select([
      'k.api_key_id', 'k.organization_id', 'k.name', 'k.secret_hash', 'k.roles', 'k.read_only', 'k.created_by', 'k.date_expires',
      'k.date_last_used', 'k.date_revoked', 'o.organization_name', 'o.organization_role', 'o.date_organization_banned',
      'm.member_id as creator_id', 'm.member_email as creator_email', 'm.date_member_banned as creator_banned',
      'co.date_organization_banned as creator_organization_banned',
    ])
    .where('k.secret_hash', '=', hash)
    .executeTakeFirst();
}

/** Notes a use unless one was noted since `before` (another instance may have): at most one write a minute per key. */
export async function noteUse(db: Db, keyId: string, at: string, from: string, before: string): Promise<void> {
  await db.updateTable('api_keys').set({ date_last_used: at, last_used_from: from })
    .where('api_key_id', '=', keyId)
    .where((eb) => eb.or([eb('date_last_used', 'is', null), eb('date_last_used', '<=', before)]))
    .execute();
}

/**
 * Counts one request of the key in the window starting at `windowStart` and answers the window's count so far.
 * One row per key and window, added to by every instance in one statement each (an upsert is atomic on both
 * engines), so together they let through no more than the limit.
 */
export async function countRequest(db: Db, keyId: string, windowStart: string): Promise<number> {
  const row = await db.insertInto('api_key_windows').values({ api_key_id: keyId, window_start: windowStart, requests: 1 })
    .onConflict((oc) => oc.columns(['api_key_id', 'window_start']).doUpdateSet({ requests: sql<number>`api_key_windows.requests + 1` }))
    .returning('requests')
    .executeTakeFirstOrThrow();
  return Number(row.requests);
}

/** Drops the key's windows before `windowStart` (called as a window starts, so a key keeps one or two rows). */
export async function dropOldWindows(db: Db, keyId: string, windowStart: string): Promise<void> {
  await db.deleteFrom('api_key_windows').where('api_key_id', '=', keyId).where('window_start', '<', windowStart).execute();
}
