/**
 * The certificate archive (DECISIONS.md "certs"): a gzipped tar of `manifest.json` and one PEM per
 * trusted certificate under a folder per organization. Same rows, same bytes.
 *
 * At a vendor's scale (80,000 trusted certificates: 35 MB of manifest, 120 MB of tar) building it
 * whole takes seconds, so it is built in pieces that are kept: the gzip stream is a series of gzip
 * members (RFC 1952 §2.2; gunzip, GNU tar and Go read them as one stream), one per organization for
 * its part of the manifest and one for its files. A rebuild reads the selection from an index
 * (no PEMs), and compresses again only the organizations whose rows changed.
 */
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { Header } from 'tar';
import type { Queryable } from '../../db/database';

export interface Export {
  body: Buffer;
  /** Strong entity tag from the content. */
  etag: string;
}

export function withEtag(body: Buffer): Export {
  return { body, etag: `"${createHash('sha256').update(body).digest('base64url')}"` };
}

/** A certificate of the archive, as its manifest describes it. */
export interface ArchiveFile {
  file: string;
  distinguished_name: string;
  organization_id: string;
  organization_name: string;
  serial_number: string;
  date_not_before: string;
  date_not_after: string;
}

/** The certificate's file in the archive: a folder per organization, a name from its DN. */
export function certificateFileName(organizationId: string, distinguishedName: string): string {
  return `${organizationId}/${createHash('sha256').update(distinguishedName).digest('hex').slice(0, 24)}.pem`;
}

/** Approved, not revoked, inside their validity window at `now`, of organizations that are not banned; in archive order. */
export async function archiveSelection(db: Queryable, now: Date): Promise<{ files: ArchiveFile[]; created: string[] }> {
  const at = now.toISOString();
  const [organizations, rows] = await Promise.all([
    db.selectFrom('organizations').select(['organization_id', 'organization_name']).where('date_organization_banned', 'is', null).execute(),
    // Served by the covering index certificates_trusted (migration 0008): no PEM is read.
    db.selectFrom('certificates')
      .select(['organization_id', 'distinguished_name', 'serial_number', 'date_not_before', 'date_not_after', 'date_created'])
      .where('date_approved', 'is not', null)
      .where('date_revoked', 'is', null)
      .where('date_not_before', '<=', at)
      .where('date_not_after', '>', at)
      .orderBy('organization_id')
      .orderBy('distinguished_name')
      .execute(),
  ]);
  const names = new Map(organizations.map((o) => [o.organization_id, o.organization_name]));
  const files: ArchiveFile[] = [];
  const created: string[] = [];
  for (const r of rows) {
    const organizationName = names.get(r.organization_id);
    if (organizationName === undefined) continue; // banned
    files.push({
      file: certificateFileName(r.organization_id, r.distinguished_name),
      distinguished_name: r.distinguished_name,
      organization_id: r.organization_id,
      organization_name: organizationName,
      serial_number: r.serial_number,
      date_not_before: r.date_not_before,
      date_not_after: r.date_not_after,
    });
    created.push(r.date_created);
  }
  return { files, created };
}

/** The next instant the selection changes by time alone: a trusted certificate's window closing, or an approved one's opening. */
export async function nextWindowChange(db: Queryable, files: ArchiveFile[], now: Date): Promise<number> {
  const opening = await db
    .selectFrom('certificates')
    .select((eb) => eb.fn.min('date_not_before').as('at'))
    .where('date_not_before', '>', now.toISOString())
    .where('date_approved', 'is not', null)
    .where('date_revoked', 'is', null)
    .executeTakeFirst();
  let next = opening?.at ? Date.parse(String(opening.at)) : Infinity;
  for (const f of files) next = Math.min(next, Date.parse(f.date_not_after));
  return next;
}

// Fixed tar times and owners and one zlib level: the archive's bytes depend on its content alone.
const FIXED_MTIME = new Date('2000-01-01T00:00:00Z');
const ZEROS = Buffer.alloc(1024);
const gz = (data: Buffer | string) => gzipSync(data);

/** A ustar header (node-tar encodes it); the content follows, padded to a whole block. */
function tarHeader(name: string, size: number): Buffer {
  const header = Buffer.alloc(512);
  new Header({ path: name, type: 'File', size, mode: 0o644, uid: 0, gid: 0, uname: '', gname: '', mtime: FIXED_MTIME }).encode(header, 0);
  return header;
}

const padding = (size: number) => ZEROS.subarray(0, (512 - (size % 512)) % 512);

/**
 * manifest.json is `JSON.stringify({ format: 1, certificates }, null, 2)` and a newline, written
 * as a head, one piece per organization (its entries), separators and a tail.
 */
const MANIFEST_HEAD = '{\n  "format": 1,\n  "certificates": [\n';
const MANIFEST_TAIL = '\n  ]\n}\n';
const MANIFEST_EMPTY = `${JSON.stringify({ format: 1, certificates: [] }, null, 2)}\n`;
const SEPARATOR = ',\n';
const SEPARATOR_GZ = gz(SEPARATOR);
const END_GZ = gz(ZEROS);

function manifestEntry(file: ArchiveFile): string {
  return JSON.stringify(file, null, 2).replace(/^/gm, '    ');
}

/** What is kept of one organization: its manifest piece and its files, each a gzip member. */
interface Piece {
  key: string;
  manifestBytes: number;
  manifest: Buffer;
  files: Buffer;
}

/**
 * Builds the archive and keeps each organization's pieces for the next build. One instance per
 * database, used by one caller at a time (the archive worker, or the process itself for an
 * in-memory database).
 */
export class CertsArchive {
  private pieces = new Map<string, Piece>();

  constructor(private readonly db: Queryable) {}

  async build(now: Date): Promise<{ archive: Export; files: ArchiveFile[]; until: number }> {
    const { files, created } = await archiveSelection(this.db, now);
    const groups = groupByOrganization(files, created);
    const stale = [...groups.keys()].filter((id) => this.pieces.get(id)?.key !== groups.get(id)!.key);
    const made = new Map<string, Piece>();
    // A few hundred organizations at a time: a first build never holds every PEM at once.
    for (let i = 0; i < stale.length; i += 200) {
      const chunk = stale.slice(i, i + 200);
      const pems = await this.readPems(chunk, now);
      for (const id of chunk) made.set(id, makePiece(groups.get(id)!, pems));
    }
    const next = new Map<string, Piece>();
    for (const id of groups.keys()) next.set(id, made.get(id) ?? this.pieces.get(id)!);
    this.pieces = next;
    return { archive: withEtag(assemble([...next.values()])), files, until: await nextWindowChange(this.db, files, now) };
  }

  /** The PEMs of the trusted certificates of these organizations, by DN. */
  private async readPems(organizations: string[], now: Date): Promise<Map<string, string>> {
    const pems = new Map<string, string>();
    const at = now.toISOString();
    if (organizations.length) {
      const rows = await this.db
        .selectFrom('certificates')
        .select(['distinguished_name', 'certificate_pem'])
        .where('organization_id', 'in', organizations)
        .where('date_approved', 'is not', null)
        .where('date_revoked', 'is', null)
        .where('date_not_before', '<=', at)
        .where('date_not_after', '>', at)
        .execute();
      for (const r of rows) pems.set(r.distinguished_name, r.certificate_pem);
    }
    return pems;
  }
}

interface Group {
  key: string;
  files: ArchiveFile[];
}

/** Files are in organization order; an organization's key changes with any of its rows (a re-upload changes date_created). */
function groupByOrganization(files: ArchiveFile[], created: string[]): Map<string, Group> {
  const groups = new Map<string, { hash: ReturnType<typeof createHash>; files: ArchiveFile[] }>();
  files.forEach((f, i) => {
    let g = groups.get(f.organization_id);
    if (!g) groups.set(f.organization_id, (g = { hash: createHash('sha256'), files: [] }));
    g.files.push(f);
    g.hash.update(JSON.stringify([f.distinguished_name, f.organization_name, f.serial_number, f.date_not_before, f.date_not_after, created[i]]));
  });
  return new Map([...groups].map(([id, g]) => [id, { key: g.hash.digest('base64url'), files: g.files }]));
}

function makePiece(group: Group, pems: Map<string, string>): Piece {
  const manifest = Buffer.from(group.files.map(manifestEntry).join(SEPARATOR), 'utf8');
  const tar: Buffer[] = [];
  for (const f of group.files) {
    const body = Buffer.from(pems.get(f.distinguished_name) ?? '', 'utf8');
    tar.push(tarHeader(f.file, body.length), body, padding(body.length));
  }
  return { key: group.key, manifestBytes: manifest.length, manifest: gz(manifest), files: gz(Buffer.concat(tar)) };
}

/** manifest.json's header and text, every organization's files, two zero blocks: as gzip members. */
function assemble(pieces: Piece[]): Buffer {
  if (pieces.length === 0) {
    const text = Buffer.from(MANIFEST_EMPTY, 'utf8');
    return Buffer.concat([gz(Buffer.concat([tarHeader('manifest.json', text.length), text, padding(text.length)])), END_GZ]);
  }
  const size =
    Buffer.byteLength(MANIFEST_HEAD) + Buffer.byteLength(MANIFEST_TAIL) +
    pieces.reduce((sum, p) => sum + p.manifestBytes, 0) + SEPARATOR.length * (pieces.length - 1);
  const members: Buffer[] = [gz(Buffer.concat([tarHeader('manifest.json', size), Buffer.from(MANIFEST_HEAD)]))];
  pieces.forEach((p, i) => members.push(...(i ? [SEPARATOR_GZ, p.manifest] : [p.manifest])));
  members.push(gz(Buffer.concat([Buffer.from(MANIFEST_TAIL), padding(size)])));
  for (const p of pieces) members.push(p.files);
  members.push(END_GZ);
  return Buffer.concat(members);
}
