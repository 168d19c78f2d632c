/**
 * From an organization API key to the actor of a request (issue 32, docs/decisions.md "API keys"). A key acts as
 * a member of its organization with its own roles, on behalf of the member who created it: that member's id is
 * the actor's (rows a key uploads or approves are theirs, as the journal says), and the key stops as that member
 * would (a ban of either organization or of the creator, the creator's removal), and also when its creator may no
 * longer grant one of its roles: a key never reaches beyond what its creator could hand out today.
 *
 * Every call reads, in one statement, the versions its key depends on (api-key-store.ts readKeyVersions, or by the
 * organizations' ids once this instance knows the key); the rest is kept for them (db/kept.ts). Creating and revoking a key move its organization's version (migration 0025), so a
 * revoked key is refused at its very next call on every instance; its expiry is checked against the clock.
 */
import type { OrganizationRole, Role, Scope } from '../../common/enums';
import { assignableRoles, canGrant, type Actor } from '../../common/policy';
import { loadTarget } from '../access/tree';
import { readRows, type Db } from '../db/database';
import { keptFor } from '../db/kept';
import { stampOf, versionsText, type Versions } from '../db/versions';
import { forbidden, unauthorized } from '../errors';
import { findKeyByHash, readKeyVersions } from './api-key-store';
import { assignmentOf, loadAssignments, type RequestActor } from './actor';
import { hashKeySecret, sameHash, wellFormedKey } from './api-key-secret';

/** What a key's call knows of its key besides the actor. */
export interface KeyFacts {
  api_key_id: string;
  /** As the journal names the actor: "API key 'ci-gateway-build' of Contoso (created by ann@contoso.com)". */
  label: string;
  expires: number;
  /** When its use was last noted (ms; -Infinity: never), so this instance writes it at most once a minute. */
  noted: number;
}

export interface KeyActor extends RequestActor {
  key: KeyFacts;
}

interface Kept {
  actor: Omit<RequestActor, 'versions'>;
  key: KeyFacts;
  /** The first instant its creator's rights may differ by time alone: a time-boxed role of theirs ends. */
  creatorRolesEnd: number;
}

const MALFORMED_KEY = 'The API key is malformed (a cpk_ key has 53 characters and a checksum): copy it again in full.';
const UNKNOWN_KEY = 'The API key is not valid. Check that it was copied in full and has not been revoked.';

/** The versions the rows say; the key's organization and its creator's, or undefined when the key is unknown or its creator gone. */
function versionsOf(rows: Record<string, unknown>[]) {
  const versions: Versions = { tree: 0, organizations: new Map() };
  let keyOrganization: string | undefined;
  let creatorOrganization: string | undefined;
  for (const row of rows) {
    if (row.kind === 'tree') {
      versions.tree = Number(row.version);
      continue;
    }
    const id = String(row.organization_id);
    versions.organizations.set(id, Number(row.version));
    const kinds = String(row.kind).split(' ');
    if (kinds.includes('key')) keyOrganization = id;
    if (kinds.includes('creator')) creatorOrganization = id;
  }
  versions.memberOrganization = keyOrganization;
  return { versions, keyOrganization, creatorOrganization };
}

type ReadVersions = ReturnType<typeof versionsOf>;

interface KeyOrganizations {
  key: string;
  creator: string;
}

/** The key's versions read by its hash (readKeyVersions): its organization and its creator's, as the rows say. */
async function readByHash(db: Db, hash: string, pathIds: readonly string[]) {
  const read = versionsOf(await readKeyVersions(db, hash, pathIds));
  const { keyOrganization: key, creatorOrganization: creator } = read;
  if (key && creator) keptFor<KeyOrganizations>(db, 'api-key-organizations').set(hash, '', { key, creator });
  return read;
}

/**
 * The versions of a key this instance knows, read by its organizations' ids like a path's, with no look-up of the
 * key (the costliest part of readKeyVersions); undefined when it does not know the key or one is gone.
 */
async function readByIds(db: Db, hash: string, pathIds: readonly string[]): Promise<ReadVersions | undefined> {
  const known = keptFor<KeyOrganizations>(db, 'api-key-organizations').get(hash, '', 0);
  if (!known) return undefined;
  const ids = [...new Set([known.key, known.creator, ...pathIds])];
  const { versions } = versionsOf(await readRows(db, versionsText([], ids.length), ids));
  if (!versions.organizations.has(known.key) || !versions.organizations.has(known.creator)) return undefined;
  versions.memberOrganization = known.key;
  return { versions, keyOrganization: known.key, creatorOrganization: known.creator };
}

/** What the key is kept under: its organizations and their versions (the creator's organization is named too). */
function stampFor(read: ReadVersions): string | undefined {
  const { versions, keyOrganization: key, creatorOrganization: creator } = read;
  const stamp = key && creator && stampOf(versions, [key, creator]);
  return stamp ? `${key} ${creator} ${stamp}` : undefined;
}

/**
 * The actor of a call with `secret`, or 401/403 saying why not; `pathIds`: the organizations of the path.
 * A key kept by this instance is confirmed by its organizations' versions alone: whatever stops or changes a key
 * (a revocation, a ban, a role change, its creator's removal) moves one of them. Anything else reads by its hash.
 */
export async function resolveKeyActor(db: Db, secret: string, now: Date, pathIds: readonly string[]): Promise<KeyActor> {
  if (!wellFormedKey(secret)) throw unauthorized(MALFORMED_KEY);
  const hash = hashKeySecret(secret);
  const kept = keptFor<Kept>(db, 'api-keys');
  const byIds = await readByIds(db, hash, pathIds);
  let stamp = byIds && stampFor(byIds);
  let found = stamp ? kept.get(hash, stamp, now.getTime()) : undefined;
  let read: ReadVersions;
  if (byIds && found) read = byIds;
  else {
    read = await readByHash(db, hash, pathIds);
    if (!read.keyOrganization) throw unauthorized(UNKNOWN_KEY);
    stamp = stampFor(read);
    found = stamp ? kept.get(hash, stamp, now.getTime()) : undefined;
  }
  if (!found) {
    found = await loadKey(db, hash, read.versions, now);
    // Kept until it expires or a role of its creator ends; the stamp changes with a revocation, a ban, a role change
    // or the creator's removal.
    if (stamp) kept.set(hash, stamp, found, now.getTime(), Math.min(found.key.expires, found.creatorRolesEnd));
  }
  const { versions } = read;
  if (now.getTime() >= found.key.expires) throw unauthorized(`This API key expired at ${new Date(found.key.expires).toISOString()}.`);
  return { ...found.actor, versions, key: found.key };
}

async function loadKey(db: Db, hash: string, versions: Versions, now: Date): Promise<Kept> {
  const row = await findKeyByHash(db, hash);
  // Found by its hash, confirmed byte for byte in constant time.
  if (!row || !sameHash(row.secret_hash, hash)) throw unauthorized(UNKNOWN_KEY);
  if (row.date_revoked) throw unauthorized(`This API key was revoked at ${row.date_revoked}.`);
  if (row.date_organization_banned) throw forbidden(`${row.organization_name} is banned from the portal.`, 'AccessError');
  if (!row.creator_id || !row.creator_email) {
    throw forbidden('The member who created this API key is no longer in the portal, so the key no longer acts: ask an administrator for a new one.', 'AccessError');
  }
  if (row.creator_banned || row.creator_organization_banned) {
    throw forbidden(`The membership of ${row.creator_email}, who created this API key, is banned, so the key no longer acts.`, 'AccessError');
  }
  const organizationRole = row.organization_role as OrganizationRole;
  const roles = JSON.parse(row.roles) as { role: Role; scope: Scope }[];
  const creatorRoles = await loadAssignments(db, row.creator_id, now);
  const creator: Actor = {
    member_id: row.creator_id,
    organization_id: row.organization_id,
    organization_role: organizationRole,
    roles: creatorRoles.map(assignmentOf),
  };
  const target = await loadTarget(db, row.organization_id, { versions });
  const beyond = roles.find(({ role, scope }) => !assignableRoles(organizationRole).includes(role)
    || !canGrant(creator, { action: 'role.assign', role, scope, member_id: row.api_key_id, member_organization_role: organizationRole }, target));
  if (beyond) {
    throw forbidden(`${row.creator_email}, who created this API key, may no longer grant its role ${beyond.role} (${beyond.scope}), so the key no longer acts.`, 'AccessError');
  }
  const label = `API key '${row.name}' of ${row.organization_name} (created by ${row.creator_email})`;
  return {
    actor: {
      member_id: row.creator_id,
      email: row.creator_email,
      name: `API key '${row.name}'`,
      organization_id: row.organization_id,
      organization_name: row.organization_name,
      organization_role: organizationRole,
      roles: roles.map(({ role, scope }) => ({ organization_id: row.organization_id, organization_role: organizationRole, role, scope })),
      api_key: { read_only: row.read_only === 1 },
    },
    key: {
      api_key_id: row.api_key_id, label, expires: Date.parse(row.date_expires),
      noted: row.date_last_used ? Date.parse(row.date_last_used) : -Infinity,
    },
    creatorRolesEnd: Math.min(Infinity, ...creatorRoles.map((r) => (r.date_until ? Date.parse(r.date_until) : Infinity))),
  };
}
