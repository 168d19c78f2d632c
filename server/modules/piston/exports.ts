/**
 * What the download gateway ("piston") pulls (DECISIONS.md "API tokens and the download gateway"):
 * routes.hcl, one block per resource, and a gzipped tar of the client certificates to trust.
 * Both are pure functions of the database and the clock: the same content gives the same bytes.
 */
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { Header } from 'tar';
import type { Queryable } from '../../db/database';
import { readEpoch } from '../../db/access-epoch';

export interface Export {
  body: Buffer;
  /** Strong entity tag from the content. */
  etag: string;
}

function withEtag(body: Buffer): Export {
  return { body, etag: `"${createHash('sha256').update(body).digest('base64url')}"` };
}

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

export async function buildRoutesHcl(db: Queryable): Promise<Export> {
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

/** The certificate's file in the archive: a folder per organization, a name from its DN. */
export function certificateFileName(organizationId: string, distinguishedName: string): string {
  return `${organizationId}/${createHash('sha256').update(distinguishedName).digest('hex').slice(0, 24)}.pem`;
}

/** Approved, not revoked, inside their validity window, of organizations that are not banned. */
export async function trustedCertificates(db: Queryable, now: Date) {
  const at = now.toISOString();
  return db
    .selectFrom('certificates as c')
    .innerJoin('organizations as o', 'o.organization_id', 'c.organization_id')
    .select(['c.distinguished_name', 'c.organization_id', 'o.organization_name', 'c.serial_number', 'c.date_not_before', 'c.date_not_after', 'c.certificate_pem'])
    .where('c.date_approved', 'is not', null)
    .where('c.date_revoked', 'is', null)
    .where('c.date_not_before', '<=', at)
    .where('c.date_not_after', '>', at)
    .where('o.date_organization_banned', 'is', null)
    .orderBy('c.organization_id')
    .orderBy('c.distinguished_name')
    .execute();
}

// Compressed off the event loop (in libuv's thread pool), so other requests go on meanwhile.
const gzipAsync = promisify(gzip);

// A fixed time in every tar header: the archive's bytes depend on its content alone.
const FIXED_MTIME = new Date('2000-01-01T00:00:00Z');
const ZEROS = Buffer.alloc(1024);

/**
 * One file of a ustar archive: node-tar encodes the 512-byte header, the content follows, padded
 * to a whole block. Written into one buffer list instead of through a tar stream, which costs about
 * three times as much for the tens of thousands of small files of a large portal.
 */
function tarFile(name: string, content: string): Buffer[] {
  const body = Buffer.from(content, 'utf8');
  const header = Buffer.alloc(512);
  new Header({ path: name, type: 'File', size: body.length, mode: 0o644, uid: 0, gid: 0, uname: '', gname: '', mtime: FIXED_MTIME }).encode(header, 0);
  const padding = (512 - (body.length % 512)) % 512;
  return padding ? [header, body, ZEROS.subarray(0, padding)] : [header, body];
}

/** The last archive made: the gateway and the statistics page ask again and again for the same one. */
let lastArchive: { fingerprint: string; archive: Export } | undefined;

export type ArchiveFile = { name: string; certificate: Awaited<ReturnType<typeof trustedCertificates>>[number] };

/**
 * The archive's selection, each certificate with its file name: what the archive packs and
 * what the statistics name (issue 9, defect 11), so the two cannot disagree.
 */
export async function archiveFiles(db: Queryable, now: Date): Promise<ArchiveFile[]> {
  const certificates = await trustedCertificates(db, now);
  return certificates.map((c) => ({ name: certificateFileName(c.organization_id, c.distinguished_name), certificate: c }));
}

/** The gzipped tar of these files (from archiveFiles) and their manifest. */
export async function certsArchiveOf(files: ArchiveFile[]): Promise<Export> {
  // Everything the archive is made of; the same rows give the same bytes, so the last one serves.
  const fingerprint = createHash('sha256');
  for (const { name, certificate } of files) fingerprint.update(JSON.stringify([name, certificate]));
  const key = fingerprint.digest('base64url');
  if (lastArchive?.fingerprint === key) return lastArchive.archive;

  const manifest = {
    format: 1,
    certificates: files.map(({ name, certificate: c }) => ({
      file: name,
      distinguished_name: c.distinguished_name,
      organization_id: c.organization_id,
      organization_name: c.organization_name,
      serial_number: c.serial_number,
      date_not_before: c.date_not_before,
      date_not_after: c.date_not_after,
    })),
  };
  const parts = [...tarFile('manifest.json', `${JSON.stringify(manifest, null, 2)}\n`)];
  for (const { name, certificate } of files) parts.push(...tarFile(name, certificate.certificate_pem));
  // Two zero blocks end a tar archive.
  parts.push(ZEROS);
  const archive = withEtag(await gzipAsync(Buffer.concat(parts)));
  lastArchive = { fingerprint: key, archive };
  return archive;
}

/**
 * The exports as the gateways poll them: rebuilt only when the export epoch has moved (a write to
 * certificates, organizations, resources or grants, on any instance) or a certificate's validity
 * window has opened or closed since; otherwise the last bytes and ETag, so a poll answered 304
 * costs one primary-key read (docs/decisions.md "Export cache"). The build is deterministic, so
 * every instance serves the same bytes and ETag for the same data.
 */
const exportCache = new WeakMap<object, Map<string, { epoch: number; from: number; until: number; result: Export }>>();

async function cached(db: Queryable, kind: 'routes' | 'certs', now: Date, build: () => Promise<{ result: Export; until: number }>): Promise<Export> {
  let entries = exportCache.get(db);
  if (!entries) exportCache.set(db, (entries = new Map()));
  // Read before building, so the export is at least as new as the epoch it is kept for.
  const epoch = await readEpoch(db, 'export_epoch');
  const hit = entries.get(kind);
  // Valid in [from, until): a clock set back (tests, a corrected server) gets a fresh build too.
  if (hit && hit.epoch === epoch && hit.from <= now.getTime() && now.getTime() < hit.until) return hit.result;
  const { result, until } = await build();
  entries.set(kind, { epoch, from: now.getTime(), until, result });
  return result;
}

export function currentRoutesHcl(db: Queryable, now: Date): Promise<Export> {
  // routes.hcl does not depend on the time.
  return cached(db, 'routes', now, async () => ({ result: await buildRoutesHcl(db), until: Infinity }));
}

export function currentCertsArchive(db: Queryable, now: Date): Promise<Export> {
  return cached(db, 'certs', now, async () => {
    const files = await archiveFiles(db, now);
    return { result: await certsArchiveOf(files), until: await nextWindowChange(db, files, now) };
  });
}

/** The next instant the archive's selection changes by time alone: a trusted certificate's window closing, or one opening. */
async function nextWindowChange(db: Queryable, files: ArchiveFile[], now: Date): Promise<number> {
  const opening = await db
    .selectFrom('certificates')
    .select((eb) => eb.fn.min('date_not_before').as('at'))
    .where('date_not_before', '>', now.toISOString())
    .where('date_approved', 'is not', null)
    .where('date_revoked', 'is', null)
    .executeTakeFirst();
  let next = opening?.at ? Date.parse(String(opening.at)) : Infinity;
  for (const { certificate } of files) next = Math.min(next, Date.parse(certificate.date_not_after));
  return next;
}
