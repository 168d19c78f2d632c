/**
 * The versions that say whether something kept is still valid (migration 0022, docs/decisions.md "Kept answers"):
 * each organization's, moved by every write to its rows, and the organization tree's, moved when an organization
 * is added, removed or moved. A request reads the ones it needs in one statement before it reads anything it may
 * keep, so whatever it keeps is at least as new as the versions it is kept under; a request that reads newer
 * versions never uses it. Every instance reads the same rows, so a ban or a role change takes effect at the very
 * next call on all of them.
 */
import { readRows, type Queryable } from './database';

export interface Versions {
  tree: number;
  /** Per organization asked for; an organization that does not exist is missing. */
  organizations: Map<string, number>;
}

/** One statement text per number of organizations (a request asks for one or two). */
const texts = new Map<number, string>();
function textFor(count: number): string {
  let text = texts.get(count);
  if (!text) {
    const marks = Array.from({ length: count }, () => '?').join(', ');
    text = `select '' as organization_id, epoch as version from organization_tree where id = 1${
      count ? ` union all select organization_id, version from organization_counters where organization_id in (${marks})` : ''}`;
    texts.set(count, text);
  }
  return text;
}

export async function readVersions(db: Queryable, organizationIds: readonly string[]): Promise<Versions> {
  const ids = [...new Set(organizationIds)];
  const rows = await readRows(db, textFor(ids.length), ids);
  const versions: Versions = { tree: 0, organizations: new Map() };
  for (const row of rows) {
    if (row.organization_id === '') versions.tree = Number(row.version);
    else versions.organizations.set(String(row.organization_id), Number(row.version));
  }
  return versions;
}

/** The stamp of something that depends on the tree and these organizations: equal stamps, equal versions. */
export function stampOf(versions: Versions, organizationIds: readonly string[]): string | undefined {
  let stamp = `t${versions.tree}`;
  for (const id of organizationIds) {
    const version = versions.organizations.get(id);
    if (version === undefined) return undefined;
    stamp += ` ${version}`;
  }
  return stamp;
}

/**
 * One number for answers over every organization (the alert gauges, the admin overview): the sum of all
 * organizations' versions and the tree's. Versions only grow, so every committed write makes it larger; it is
 * read (one pass over a row per organization), never written, so no writer waits for it.
 */
export async function readGlobalVersion(db: Queryable): Promise<string> {
  const [row] = await readRows(db, 'select (select coalesce(sum(version), 0) from organization_counters) as data, (select epoch from organization_tree where id = 1) as tree');
  return `${row.data}/${row.tree}`;
}
