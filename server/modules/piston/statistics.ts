/**
 * Piston statistics (SPEC.md §3): the ETags of both exports and, per organization, the count of
 * unapproved certificates and the latest certificate of each event with the date of that event.
 * File names come from the archive's own selection (archiveFiles): a certificate that is not in
 * the archive (not approved, revoked, expired, or of a banned organization) has none.
 */
import { sql } from 'kysely';
import type { Queryable } from '../../db/database';
import { certificateFileName, type ArchiveFile, type Export } from './exports';

const EVENTS = ['upload', 'valid', 'approve', 'revoke', 'expired'] as const;
export type PistonEvent = (typeof EVENTS)[number];

interface LatestCertificate {
  /** Its file in the archive, or null when the archive does not hold it. */
  file_name: string | null;
  distinguished_name: string;
  date_modified: string;
}

export interface OrganizationStatistics {
  organization_id: string;
  organization_name: string;
  cert_unapproved: number;
  latest: Record<PistonEvent, LatestCertificate | null>;
}

type LatestRow = { organization_id: string; distinguished_name: string; date_modified: string };

/**
 * Which date marks each event, and which certificates count for it at `now`. "valid" and "expired"
 * speak of the gateway's view: approved certificates entering or leaving the archive. "valid" is
 * read from the archive's files themselves (latestValid).
 */
function eventColumn(event: Exclude<PistonEvent, 'valid'>, at: string) {
  switch (event) {
    case 'upload': return { column: 'date_created', where: sql`1 = 1` };
    case 'approve': return { column: 'date_approved', where: sql`date_approved is not null` };
    case 'revoke': return { column: 'date_revoked', where: sql`date_revoked is not null` };
    case 'expired': return { column: 'date_not_after', where: sql`date_approved is not null and date_not_after <= ${at}` };
  }
}

/** Per organization, the archived certificate that entered the archive last (newest not-before, then DN). */
function latestValid(files: ArchiveFile[]): Map<string, LatestRow> {
  const latest = new Map<string, LatestRow>();
  for (const c of files) {
    const best = latest.get(c.organization_id);
    if (!best || c.date_not_before > best.date_modified || (c.date_not_before === best.date_modified && c.distinguished_name < best.distinguished_name)) {
      latest.set(c.organization_id, { organization_id: c.organization_id, distinguished_name: c.distinguished_name, date_modified: c.date_not_before });
    }
  }
  return latest;
}

/** The latest certificate of one event per organization, by a window function (both dialects). */
async function latestPerOrganization(db: Queryable, event: PistonEvent, at: string, files: ArchiveFile[]) {
  if (event === 'valid') return latestValid(files);
  const { column, where } = eventColumn(event, at);
  const result = await sql<LatestRow>`
    select organization_id, distinguished_name, date_modified from (
      select organization_id, distinguished_name, ${sql.ref(column)} as date_modified,
             row_number() over (partition by organization_id order by ${sql.ref(column)} desc, distinguished_name) as position
      from certificates where ${where}
    ) ranked where position = 1`.execute(db);
  return new Map(result.rows.map((r) => [r.organization_id, r]));
}

/** `files` are the archive's (archiveFiles), `certs` the archive made of them. */
export async function buildStatistics(db: Queryable, now: Date, routes: Export, certs: Export, files: ArchiveFile[]) {
  const at = now.toISOString();
  const archived = new Set(files.map((f) => f.file));
  const [organizations, unapproved, ...latest] = await Promise.all([
    db.selectFrom('organizations').select(['organization_id', 'organization_name']).orderBy('organization_name').execute(),
    db.selectFrom('certificates').select(['organization_id', (eb) => eb.fn.countAll<number>().as('n')])
      .where('date_approved', 'is', null).where('date_revoked', 'is', null).groupBy('organization_id').execute(),
    ...EVENTS.map((event) => latestPerOrganization(db, event, at, files)),
  ]);
  const unapprovedOf = new Map(unapproved.map((u) => [u.organization_id, Number(u.n)]));
  return {
    routes: { etag: routes.etag },
    certs: { etag: certs.etag },
    organizations: organizations.map((o): OrganizationStatistics => ({
      ...o,
      cert_unapproved: unapprovedOf.get(o.organization_id) ?? 0,
      latest: Object.fromEntries(
        EVENTS.map((event, i) => {
          const row = latest[i].get(o.organization_id);
          if (!row) return [event, null];
          const name = certificateFileName(o.organization_id, row.distinguished_name);
          return [event, { file_name: archived.has(name) ? name : null, distinguished_name: row.distinguished_name, date_modified: row.date_modified }];
        }),
      ) as Record<PistonEvent, LatestCertificate | null>,
    })),
  };
}
