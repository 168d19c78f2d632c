/**
 * The queries of a call signed in with an organization API key (issue 32): the versions it depends on, the key by
 * its hash, the leases of its limit and the note of its use. The keys' routes have theirs in modules/api-keys.
 */
import { sql } from 'kysely';
import { readRows, type Db, type Queryable } from '../db/database';
import { versionsText } from '../db/versions';

/**
 * The key's organization and its creator's, from one look-up of the key by its hash (db/versions.ts versionsText):
 * one row when they are the same organization (kind 'key creator'), else a 'key' and a 'creator' row; no 'creator'
 * when the creator is gone. One look-up rather than one per organization: every call with a key runs it.
 */
const KEY_AND_CREATOR = [
  `select case when c.organization_id <> k.organization_id then 'creator' when m.organization_id = k.organization_id then 'key creator' else 'key' end,
    c.organization_id, c.version from api_keys k left join members m on m.member_id = k.created_by
    join organization_counters c on c.organization_id in (k.organization_id, m.organization_id) where k.secret_hash = ?`,
];

/**
 * The versions a key's call depends on, in one statement (db/versions.ts): the tree's, the key's organization's
 * (moved by creating or revoking a key, a ban, a role change there), its creator's organization's (their ban,
 * roles, removal) and the path's. No row of kind 'key': no key has that hash.
 */
export function readKeyVersions(db: Queryable, hash: string, pathIds: readonly string[]) {
  return readRows(db, versionsText(KEY_AND_CREATOR, pathIds.length), [hash, ...pathIds]);
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
 * Leases `size` more of the key's requests in the window starting at `windowStart` and answers how many are
 * leased in it now, this lease included (api-key-limits.ts). One row per key and window, added to by every
 * instance in one statement each (an upsert is atomic on both engines), so no two leases overlap.
 */
export async function takeLease(db: Db, keyId: string, windowStart: string, size: number): Promise<number> {
  const row = await db.insertInto('api_key_windows').values({ api_key_id: keyId, window_start: windowStart, requests: size })
    .onConflict((oc) => oc.columns(['api_key_id', 'window_start']).doUpdateSet({ requests: sql<number>`api_key_windows.requests + ${size}` }))
    .returning('requests')
    .executeTakeFirstOrThrow();
  return Number(row.requests);
}

/** Drops the key's windows before `windowStart` (called as a window starts, so a key keeps one or two rows). */
export async function dropOldWindows(db: Db, keyId: string, windowStart: string): Promise<void> {
  await db.deleteFrom('api_key_windows').where('api_key_id', '=', keyId).where('window_start', '<', windowStart).execute();
}
