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
  /** Per organization asked for (and the member's); an organization that does not exist is missing. */
  organizations: Map<string, number>;
  /** The organization of whoever signs in (the member's, the key's); undefined: nobody. */
  memberOrganization?: string;
}

/** One statement text per shape: who is asked for, and how many path organizations (a request asks for one or two). */
const texts = new Map<string, string>();

/**
 * The statement of a request's versions: the tree's, those of `who` (selects of `kind, organization_id, version` and
 * `width` more columns, each with its own parameters, given first) and those of `count` path organizations, in one
 * union. A person's sign-in asks for its member, their organization's version and their roles (auth/sign-in.ts), an
 * API key's for the key's and its creator's organizations (auth/api-key-store.ts): every request reads its versions
 * this one way.
 */
export function versionsText(who: readonly string[], count: number, width = 0): string {
  const key = `${who.join('\n')}\n${count}\n${width}`;
  let text = texts.get(key);
  if (!text) {
    const marks = Array.from({ length: count }, () => '?').join(', ');
    // The union's column names are the first select's; the tree's and the path's rows fill the extra columns with nulls.
    const extra = (named: boolean) => Array.from({ length: width }, (_, i) => (named ? `, null as c${i + 1}` : ', null')).join('');
    text = [
      `select 'tree' as kind, '' as organization_id, epoch as version${extra(true)} from organization_tree where id = 1`,
      ...who,
      ...(count ? [`select 'path', organization_id, version${extra(false)} from organization_counters where organization_id in (${marks})`] : []),
    ].join(' union all ');
    texts.set(key, text);
  }
  return text;
}

/** The versions among rows of `versionsText`: the tree's and every organization's (the other kinds are their caller's). */
export function versionsOf(rows: readonly Record<string, unknown>[]): Versions {
  const versions: Versions = { tree: 0, organizations: new Map() };
  for (const row of rows) {
    if (row.kind === 'tree') versions.tree = Number(row.version);
    else if (row.version !== null) versions.organizations.set(String(row.organization_id), Number(row.version));
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
 * One number for answers over every organization (the alert gauges, the admin overview, kept answers `over: 'all'`): the sum of all
 * organizations' versions and the tree's. Versions only grow, so every committed write makes it larger; it is
 * read (one pass over a row per organization), never written, so no writer waits for it.
 */
export async function readGlobalVersion(db: Queryable): Promise<string> {
  const [row] = await readRows(db, 'select (select coalesce(sum(version), 0) from organization_counters) as data, (select epoch from organization_tree where id = 1) as tree');
  return `${row.data}/${row.tree}`;
}
