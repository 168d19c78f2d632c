/**
 * What the download gateway ("piston") pulls (DECISIONS.md "API tokens and the download gateway"):
 * routes.hcl, one block per resource, and a gzipped tar of the client certificates to trust
 * (archive.ts). Both are pure functions of the database and the clock: the same content gives the
 * same bytes.
 */
import type { Db, Queryable } from '../../db/database';
import { knownExportEpoch, readExportEpoch } from '../../db/export-epoch';
import { withEtag, type Export } from './archive';
import { buildCertsArchive } from './archive-builder';
import { exportRebuilds } from '../../metrics';

export type { ArchiveFile, Export } from './archive';
export { certificateFileName } from './archive';

const HCL_ESCAPES: Record<string, string> = { '\\': '\\\\', '"': '\\"', '\n': '\\n', '\r': '\\r', '\t': '\\t', '${': '$${', '%{': '%%{' };

/**
 * A quoted HCL2 template whose value is exactly `value` (HCL native syntax spec, "Template
 * Expressions" and "Template Literals"): backslash, quote, newline, carriage return and tab as
 * `\\`, `\"`, `\n`, `\r`, `\t`; every other control character (C0, DEL, C1), U+2028, U+2029 and
 * U+FEFF as `\uNNNN`, so the file stays one line per attribute for any reader; `${` and `%{` as
 * `$${` and `%%{`, so the gateway never interpolates or runs a directive. One pass, so an escape
 * is never escaped again. A lone UTF-16 surrogate (no database text holds one) becomes U+FFFD,
 * as writing it in UTF-8 would make it anyway; HCL refuses `\uD800`.
 */
export function hclString(value: string): string {
  const escaped = value.replace(/\$\{|%\{|[\\"\n\r\t]|[\u0000-\u001f\u007f-\u009f\u2028\u2029\ufeff]|[\ud800-\udfff]/gu, (match) => {
    const code = match.codePointAt(0)!;
    return HCL_ESCAPES[match] ?? (code >= 0xd800 && code <= 0xdfff ? '\\ufffd' : `\\u${code.toString(16).padStart(4, '0')}`);
  });
  return `"${escaped}"`;
}

async function activeOrganizationIds(db: Queryable): Promise<string[]> {
  const rows = await db.selectFrom('organizations').select('organization_id').where('date_organization_banned', 'is', null).orderBy('organization_id').execute();
  return rows.map((r) => r.organization_id);
}

async function buildRoutesHcl(db: Queryable): Promise<Export> {
  const [resources, active, grants] = await Promise.all([
    db.selectFrom('resources').selectAll().orderBy('ordinal').execute(),
    activeOrganizationIds(db),
    db.selectFrom('resource_grants').select(['resource_id', 'organization_id']).orderBy('organization_id').execute(),
  ]);
  const activeSet = new Set(active);
  const lines = ['# Routes of the download gateway, written by the Customer Portal. Do not edit by hand.', ''];
  for (const r of resources) {
    const allowed = r.resource_access === 'RESTRICTED'
      ? grants.filter((g) => g.resource_id === r.resource_id && activeSet.has(g.organization_id)).map((g) => g.organization_id)
      : active;
    lines.push(
      `resource ${hclString(r.resource_id)} {`,
      `  ordinal       = ${r.ordinal}`,
      `  name          = ${hclString(r.resource_name)}`,
      `  path_pattern  = ${hclString(r.path_pattern)}`,
      `  location      = ${hclString(r.location)}`,
      `  type          = ${hclString(r.resource_type)}`,
      `  access        = ${hclString(r.resource_access)}`,
      `  organizations = [${allowed.map(hclString).join(', ')}]`,
      '}',
      '',
    );
  }
  return withEtag(Buffer.from(lines.join('\n'), 'utf8'));
}

/**
 * The exports as the gateways poll them: rebuilt only when the export epoch has moved (a write to
 * certificates, organizations, resources or grants, on any instance) or a certificate's validity
 * window has opened or closed since; otherwise the last bytes and ETag, so a poll answered 304
 * costs one primary-key read (docs/decisions.md "Export cache"). The build is deterministic, so
 * every instance serves the same bytes and ETag for the same data.
 */
type Entry = { epoch: number; from: number; until: number; result: Export };
const exportCache = new WeakMap<object, Map<string, Entry>>();
/** The build under way per kind: fifty gateways polling right after a change wait for one build, not fifty. */
const building = new WeakMap<object, Map<string, { epoch: number; entry: Promise<Entry> }>>();

const fresh = (entry: Entry | undefined, epoch: number, at: number) => entry && entry.epoch === epoch && entry.from <= at && at < entry.until;

async function cached(db: Queryable, kind: 'routes' | 'certs', now: Date, build: () => Promise<{ result: Export; until: number }>): Promise<Export> {
  let entries = exportCache.get(db);
  if (!entries) exportCache.set(db, (entries = new Map()));
  let running = building.get(db);
  if (!running) building.set(db, (running = new Map()));
  // Read before building, so the export is at least as new as the epoch it is kept for.
  const epoch = await readExportEpoch(db);
  const at = now.getTime();
  // Valid in [from, until): a clock set back (tests, a corrected server) gets a fresh build too.
  const hit = entries.get(kind);
  if (fresh(hit, epoch, at)) return hit!.result;
  const under = running.get(kind);
  if (under && under.epoch === epoch) {
    const entry = await under.entry;
    if (fresh(entry, epoch, at)) return entry.result;
  }
  const timer = exportRebuilds.startTimer({ kind });
  const entry = build().then(
    ({ result, until }) => {
      timer({ outcome: 'ok' });
      return { epoch, from: at, until, result };
    },
    (error: unknown) => {
      timer({ outcome: 'error' });
      throw error;
    },
  );
  running.set(kind, { epoch, entry });
  try {
    const made = await entry;
    const current = entries.get(kind);
    if (!current || made.epoch >= current.epoch) entries.set(kind, made); // never replace a newer one
    return made.result;
  } finally {
    if (running.get(kind)?.entry === entry) running.delete(kind);
  }
}

/** The kept export when it is still current and this process knows so without a query (modules/piston/fast-poll.ts). */
export function keptExport(db: Db, kind: 'routes' | 'certs', now: Date): Export | undefined {
  const epoch = knownExportEpoch(db);
  const hit = exportCache.get(db)?.get(kind);
  return epoch !== undefined && fresh(hit, epoch, now.getTime()) ? hit!.result : undefined;
}

/** What every answer of an export carries, its 304 too (and a 304 nothing else: routes.ts, fast-poll.ts). */
export const exportHeaders = (etag: string) => ({ etag, 'cache-control': 'no-cache' });

/** True when a client that sent this If-None-Match already has `etag` (RFC 9110 §13.1.2, strong comparison). */
export function notModified(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.trim() === '*' || ifNoneMatch.split(',').some((tag) => tag.trim() === etag);
}

export function currentRoutesHcl(db: Queryable, now: Date): Promise<Export> {
  // routes.hcl does not depend on the time.
  return cached(db, 'routes', now, async () => ({ result: await buildRoutesHcl(db), until: Infinity }));
}

export function currentCertsArchive(db: Queryable, now: Date): Promise<Export> {
  return cached(db, 'certs', now, async () => {
    const { archive, until } = await buildCertsArchive(db, now);
    return { result: archive, until };
  });
}
