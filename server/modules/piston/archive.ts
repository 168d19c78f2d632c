/**
 * The certificate archive (DECISIONS.md "certs"): a gzipped tar of `manifest.json` and one PEM per
 * trusted certificate under a folder per organization. Same rows, same bytes.
 *
 * At a vendor's scale (80,000 trusted certificates: 35 MB of manifest, 120 MB of tar) building it
 * whole takes seconds, so it is built in pieces that are kept: the gzip stream is a series of gzip
 * members (RFC 1952 §2.2; gunzip, GNU tar and Go read them as one stream), two per piece (its part
 * of the manifest, its files). A piece is a run of one organization's certificates cut where the
 * content says (after a certificate whose DN hashes to 0 modulo 256: one in 256),
 * so a change compresses again the piece it falls in, not the organization's 16,000 certificates.
 * A rebuild reads per organization a version that triggers move on every write to its
 * certificates (migration 0015), and reads again only the organizations whose version moved or
 * whose next validity window change has come.
 */
import { createHash } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import { Header } from 'tar';
import type { Queryable } from '../../db/database';
import { ownBytes } from '../../own-bytes';

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

/** The trusted certificates of these organizations (approved, not revoked, inside their window at `at`), in archive order. */
function selectTrusted(db: Queryable, organizations: string[], at: string) {
  // Served by the covering index certificates_trusted (migration 0008): no PEM is read.
  return db.selectFrom('certificates')
    .select(['organization_id', 'distinguished_name', 'serial_number', 'date_not_before', 'date_not_after', 'date_created'])
    .where('organization_id', 'in', organizations)
    .where('date_approved', 'is not', null)
    .where('date_revoked', 'is', null)
    .where('date_not_before', '<=', at)
    .where('date_not_after', '>', at)
    .orderBy('organization_id')
    .orderBy('distinguished_name')
    .execute();
}

/** Per organization, the next instant after `at` at which an approved certificate's window opens. */
async function nextOpenings(db: Queryable, organizations: string[], at: string): Promise<Map<string, number>> {
  const rows = await db.selectFrom('certificates')
    .select((eb) => ['organization_id', eb.fn.min('date_not_before').as('at')])
    .where('organization_id', 'in', organizations)
    .where('date_approved', 'is not', null)
    .where('date_revoked', 'is', null)
    .where('date_not_before', '>', at)
    .groupBy('organization_id')
    .execute();
  return new Map(rows.map((r) => [r.organization_id, Date.parse(String(r.at))]));
}

// Fixed tar times and owners and one zlib level: the archive's bytes depend on its content alone.
const FIXED_MTIME = new Date('2000-01-01T00:00:00Z');
const ZEROS = Buffer.alloc(1024);
/**
 * Into bytes of their own (own-bytes.ts): a first build of 5,000 organizations' pieces held 414 MB of zlib's output
 * chunks until the archive was assembled (the builder's peak RSS 619 MB; 308 MB with the copy).
 */
const gz = (data: Buffer | string) => ownBytes(gzipSync(data));

/** A ustar header (node-tar encodes it); the content follows, padded to a whole block. */
function tarHeader(name: string, size: number): Buffer {
  const header = Buffer.alloc(512);
  new Header({ path: name, type: 'File', size, mode: 0o644, uid: 0, gid: 0, uname: '', gname: '', mtime: FIXED_MTIME }).encode(header, 0);
  return header;
}

const padding = (size: number) => ZEROS.subarray(0, (512 - (size % 512)) % 512);

/**
 * manifest.json is `JSON.stringify({ format: 1, certificates }, null, 2)` and a newline, written
 * as a head, one piece per run of certificates (its entries), separators and a tail.
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

/** A run of one organization's certificates: its part of the manifest and its files, each a gzip member. */
interface Piece {
  /** A hash of every column its bytes are made of (a re-upload changes date_created, a rename the organization's name). */
  key: string;
  manifestBytes: number;
  manifest: Buffer;
  files: Buffer;
}

/** What is kept of an organization: its pieces, right from `from` until `until` (its next window change) while its version holds. */
interface Kept {
  name: string;
  version: number;
  from: number;
  until: number;
  pieces: Piece[];
}

type Span = [start: number, end: number];

/**
 * What a builder keeps, without its bytes: each piece as spans of the archive it was last
 * assembled into. Another builder (a new archive process) takes it with that archive and goes on
 * from there (CertsArchive.restore). `until` is null for "no window change ahead" (Infinity).
 */
export interface KeptState {
  organizations: Array<[id: string, name: string, version: number, from: number, until: number | null, pieces: Array<[key: string, manifestBytes: number, manifest: Span, files: Span]>]>;
}

/** Ends a run: about one certificate in 256, by a hash of its DN (FNV-1a), so the same rows are cut the same way on every instance. */
function endsRun(distinguishedName: string): boolean {
  let hash = 0x811c9dc5;
  for (let i = 0; i < distinguishedName.length; i++) hash = Math.imul(hash ^ distinguishedName.charCodeAt(i), 0x01000193);
  return (hash & 0xff) === 0;
}

/**
 * Builds the archive and keeps each organization's pieces for the next build. One instance per
 * database, used by one caller at a time (the archive process, or the process itself for an
 * in-memory database).
 */
export class CertsArchive {
  private kept = new Map<string, Kept>();
  private state: KeptState = { organizations: [] };
  /** Milliseconds of the last build's steps; how many organizations it read again and how many pieces it compressed. */
  timing: Record<string, number> = {};

  constructor(private readonly db: Queryable) {}

  /** Goes on from what another builder kept: its state and the archive that state points into. */
  restore(state: KeptState, body: Buffer): void {
    this.state = state;
    this.kept = new Map(state.organizations.map(([id, name, version, from, until, pieces]) => [id, {
      name, version, from, until: until ?? Infinity,
      pieces: pieces.map(([key, manifestBytes, manifest, files]) => ({
        key, manifestBytes, manifest: body.subarray(...manifest), files: body.subarray(...files),
      })),
    }]));
  }

  /** What another builder needs to go on from here (with the last archive's bytes). */
  keptState(): KeptState {
    return this.state;
  }

  /** The archive at `now`, and the instant it changes without a write (a certificate's window opens or closes). */
  async build(now: Date, withFiles = false): Promise<{ archive: Export; files?: ArchiveFile[]; until: number }> {
    const at = now.toISOString();
    const time = now.getTime();
    const timing: Record<string, number> = {};
    let t = performance.now();
    const step = (name: string) => {
      const was = t;
      t = performance.now();
      timing[name] = Math.round(t - was);
    };
    // Versions first, then rows: a write in between moves a version this build has not seen, and the next build reads it again.
    const organizations = await this.db
      .selectFrom('organizations')
      .leftJoin('archive_versions', 'archive_versions.organization_id', 'organizations.organization_id')
      .select(['organizations.organization_id as id', 'organizations.organization_name as name', 'archive_versions.version'])
      .where('organizations.date_organization_banned', 'is', null)
      .orderBy('organizations.organization_id')
      .execute();
    step('versions');
    const stale = organizations.filter((o) => {
      const k = this.kept.get(o.id);
      return !(k && k.version === Number(o.version ?? 0) && k.name === o.name && k.from <= time && time < k.until);
    });
    const made = new Map<string, Kept>();
    let compressed = 0;
    // A few hundred organizations at a time: a first build never holds every PEM at once.
    for (let i = 0; i < stale.length; i += 200) {
      const chunk = stale.slice(i, i + 200);
      const ids = chunk.map((o) => o.id);
      const [rows, openings] = await Promise.all([selectTrusted(this.db, ids, at), nextOpenings(this.db, ids, at)]);
      const runs = new Map<string, Run[]>(ids.map((id) => [id, []]));
      let run: Run | undefined;
      for (const r of rows) {
        if (!run || run.rows[0].organization_id !== r.organization_id) runs.get(r.organization_id)!.push((run = { rows: [], text: '' }));
        run.rows.push(r);
        // Every column the piece's bytes are made of, each with its length: no two different runs give the same text.
        for (const v of [r.distinguished_name, r.serial_number, r.date_not_before, r.date_not_after, r.date_created]) run.text += `${v.length}:${v}`;
        if (endsRun(r.distinguished_name)) run = undefined;
      }
      // A run whose key an earlier build made is kept; the others are made from their PEMs.
      const wanted: string[] = [];
      for (const o of chunk) {
        const old = new Map((this.kept.get(o.id)?.pieces ?? []).map((p) => [p.key, p]));
        for (const r of runs.get(o.id)!) {
          r.key = createHash('sha256').update(`${o.name.length}:${o.name}${r.text}`).digest('base64url');
          r.piece = old.get(r.key);
          if (!r.piece) {
            compressed++;
            for (const row of r.rows) wanted.push(row.distinguished_name);
          }
        }
      }
      const pems = await this.readPems(wanted);
      for (const o of chunk) {
        let until = openings.get(o.id) ?? Infinity;
        const pieces = runs.get(o.id)!.map((r) => {
          for (const row of r.rows) until = Math.min(until, Date.parse(row.date_not_after));
          return r.piece ?? makePiece(r.key!, r.rows.map((row) => archiveFile(row, o.name)), pems);
        });
        made.set(o.id, { name: o.name, version: Number(o.version ?? 0), from: time, until, pieces });
      }
    }
    step('stale organizations');
    // In the organizations' order, which is the database's, as the rows' is.
    const next = new Map(organizations.map((o) => [o.id, made.get(o.id) ?? this.kept.get(o.id)!]));
    const { body, state } = assemble(next);
    step('assemble');
    const archive = withEtag(body);
    step('etag');
    let until = Infinity;
    for (const k of next.values()) until = Math.min(until, k.until);
    const files = withFiles ? manifestFiles(next) : undefined;
    if (withFiles) step('files');
    // The pieces now point into the body: one copy of the bytes, and a state another builder can take over.
    this.restore(state, body);
    this.timing = { ...timing, organizations: organizations.length, stale: stale.length, compressed };
    return { archive, files, until };
  }

  /** The PEMs of these certificates, by DN. */
  private async readPems(dns: string[]): Promise<Map<string, string>> {
    const pems = new Map<string, string>();
    for (let i = 0; i < dns.length; i += 500) {
      const rows = await this.db.selectFrom('certificates').select(['distinguished_name', 'certificate_pem']).where('distinguished_name', 'in', dns.slice(i, i + 500)).execute();
      for (const r of rows) pems.set(r.distinguished_name, r.certificate_pem);
    }
    return pems;
  }
}

/** The manifest's entries, read back from the pieces. */
function manifestFiles(organizations: Map<string, Kept>): ArchiveFile[] {
  const files: ArchiveFile[] = [];
  for (const k of organizations.values()) {
    for (const p of k.pieces) for (const f of JSON.parse(`[${gunzipSync(p.manifest).toString('utf8')}]`) as ArchiveFile[]) files.push(f);
  }
  return files;
}

type TrustedRow = Awaited<ReturnType<typeof selectTrusted>>[number];

interface Run {
  rows: TrustedRow[];
  /** What its key is the hash of. */
  text: string;
  key?: string;
  piece?: Piece;
}

function archiveFile(r: TrustedRow, organizationName: string): ArchiveFile {
  return {
    file: certificateFileName(r.organization_id, r.distinguished_name),
    distinguished_name: r.distinguished_name,
    organization_id: r.organization_id,
    organization_name: organizationName,
    serial_number: r.serial_number,
    date_not_before: r.date_not_before,
    date_not_after: r.date_not_after,
  };
}

function makePiece(key: string, files: ArchiveFile[], pems: Map<string, string>): Piece {
  const manifest = Buffer.from(files.map(manifestEntry).join(SEPARATOR), 'utf8');
  const tar: Buffer[] = [];
  for (const f of files) {
    const body = Buffer.from(pems.get(f.distinguished_name) ?? '', 'utf8');
    tar.push(tarHeader(f.file, body.length), body, padding(body.length));
  }
  return { key, manifestBytes: manifest.length, manifest: gz(manifest), files: gz(Buffer.concat(tar)) };
}

/**
 * manifest.json's header and text, every piece's files, two zero blocks: as gzip members. Answers
 * the archive and the state that points into it.
 */
function assemble(organizations: Map<string, Kept>): { body: Buffer; state: KeptState } {
  const members: Buffer[] = [];
  let offset = 0;
  const push = (member: Buffer): Span => {
    members.push(member);
    offset += member.length;
    return [offset - member.length, offset];
  };
  const pieces = [...organizations.values()].flatMap((k) => k.pieces);
  const manifestSpans = new Map<Piece, Span>();
  const fileSpans = new Map<Piece, Span>();
  if (pieces.length === 0) {
    const text = Buffer.from(MANIFEST_EMPTY, 'utf8');
    push(gz(Buffer.concat([tarHeader('manifest.json', text.length), text, padding(text.length)])));
  } else {
    const size =
      Buffer.byteLength(MANIFEST_HEAD) + Buffer.byteLength(MANIFEST_TAIL) +
      pieces.reduce((sum, p) => sum + p.manifestBytes, 0) + SEPARATOR.length * (pieces.length - 1);
    push(gz(Buffer.concat([tarHeader('manifest.json', size), Buffer.from(MANIFEST_HEAD)])));
    pieces.forEach((p, i) => {
      if (i) push(SEPARATOR_GZ);
      manifestSpans.set(p, push(p.manifest));
    });
    push(gz(Buffer.concat([Buffer.from(MANIFEST_TAIL), padding(size)])));
    for (const p of pieces) fileSpans.set(p, push(p.files));
  }
  push(END_GZ);
  const state: KeptState = {
    organizations: [...organizations].map(([id, k]) => [
      id, k.name, k.version, k.from, Number.isFinite(k.until) ? k.until : null,
      k.pieces.map((p) => [p.key, p.manifestBytes, manifestSpans.get(p)!, fileSpans.get(p)!]),
    ]),
  };
  return { body: Buffer.concat(members, offset), state };
}
