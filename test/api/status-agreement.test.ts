/**
 * One definition of each status (issue 11): the SQL of the lists, the pending tasks and the gateway
 * archive must let through exactly the rows that common/status.ts names, at every instant. Rows are
 * generated with their dates at the evaluated instant, one millisecond either side, a day and a month
 * away, in every combination of approved, revoked, rejected, acknowledged and renewed (the successor
 * requested, approved or rejected), inserted into a fresh database of each engine, and every filter is
 * run at those instants and compared with the function, row by row.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { gunzipSync } from 'node:zlib';
import { Readable } from 'node:stream';
import { Parser } from 'tar';
import { certificateStatus, licenseStatus } from '../../common/status';
import {
  CERTIFICATE_STATUS_FILTERS, CERTIFICATE_STATUS_GROUPS, certificateHasStatus, LICENSE_STATUS_FILTERS, LICENSE_STATUS_GROUPS,
  licenseHasStatus, passesStatuses, type CertificateStatusFilter, type LicenseStatusFilter,
} from '../../common/status-filters';
import type { Db } from '../../server/db/database';
import { listCertificates, listPendingCertificates } from '../../server/modules/certificates/repository';
import { listLicenses, listPendingLicenses } from '../../server/modules/licenses/repository';
import { buildCertsArchive, closeArchiveBuilder } from '../../server/modules/piston/archive-builder';
import { createTestDatabase, testDialects, type TestDatabase } from '../support/databases';

const dialects = await testDialects();
const DAY = 86_400_000;
/** The instant the generated dates are placed around. */
const NOW = Date.parse('2026-03-15T10:00:00.000Z');
const ORGANIZATIONS = ['org-a', 'org-b', 'org-c'];
// The parsed query's defaults (common/schemas/lists.ts), which each call below overrides in part.
const PAGE = { offset: 0, limit: 1000, status: undefined, hideExpired: false, hideRequests: false, hideValid: false };
const iso = (ms: number) => new Date(ms).toISOString();

/** A date at the boundary (NOW), one millisecond either side, or further away; a day's width too. */
const offset = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(-1, 0, 1) },
  { weight: 2, arbitrary: fc.constantFrom(-30 * DAY, -DAY, DAY, 30 * DAY) },
  { weight: 1, arbitrary: fc.integer({ min: -40 * DAY, max: 40 * DAY }) },
);
const maybe = fc.option(offset, { freq: 2 });

interface GeneratedCertificate {
  organization: number;
  notBefore: number;
  notAfter: number;
  approved: number | null;
  revoked: number | null;
  acknowledged: number | null;
}
const certificate: fc.Arbitrary<GeneratedCertificate> = fc.record({
  organization: fc.nat({ max: ORGANIZATIONS.length - 1 }),
  notBefore: offset,
  // Mostly a window that opens before it closes; sometimes an empty or inverted one.
  notAfter: fc.oneof({ weight: 4, arbitrary: offset }, { weight: 1, arbitrary: fc.constant(Number.NaN) }),
  approved: maybe,
  revoked: fc.option(offset, { freq: 3 }),
  acknowledged: fc.option(offset, { freq: 3 }),
}).map((c) => ({ ...c, notAfter: Number.isNaN(c.notAfter) ? c.notBefore : c.notAfter }));

interface GeneratedLicense {
  organization: number;
  validFrom: number;
  validUntil: number;
  approved: number | null;
  rejected: number | null;
  acknowledged: number | null;
  /** Index of its successor among the generated licenses (renewed), if any. */
  successor: number | null;
}
// Approve and reject both need a Not-approved license, so a license is never both (certificates can be
// approved and then revoked). Everything else combines freely, reachable or not.
const license: fc.Arbitrary<GeneratedLicense> = fc.record({
  organization: fc.nat({ max: ORGANIZATIONS.length - 1 }),
  validFrom: offset,
  validUntil: offset,
  decision: fc.constantFrom('none', 'approved', 'approved', 'rejected'),
  decided: offset,
  acknowledged: fc.option(offset, { freq: 3 }),
  successor: fc.option(fc.nat({ max: 11 }), { freq: 3 }),
}).map(({ decision, decided, ...l }) => ({
  ...l,
  approved: decision === 'approved' ? decided : null,
  rejected: decision === 'rejected' ? decided : null,
}));

const world = fc.record({
  certificates: fc.array(certificate, { minLength: 1, maxLength: 12 }),
  licenses: fc.array(license, { minLength: 1, maxLength: 12 }),
  banned: fc.array(fc.boolean(), { minLength: ORGANIZATIONS.length, maxLength: ORGANIZATIONS.length }),
  /** Besides NOW, instants one millisecond around some generated date: every boundary gets its turn. */
  extra: fc.array(fc.tuple(fc.nat(), fc.constantFrom(-1, 0, 1)), { maxLength: 2 }),
});
type World = typeof world extends fc.Arbitrary<infer W> ? W : never;

interface Rows {
  certificates: Array<{
    distinguished_name: string; organization_id: string; date_not_before: string; date_not_after: string;
    date_approved: string | null; date_revoked: string | null; date_expiry_acknowledged: string | null; date_created: string;
  }>;
  licenses: Array<{
    license_id: string; organization_id: string; date_valid_from: string; date_valid_until: string;
    date_approved: string | null; date_rejected: string | null; date_expiry_acknowledged: string | null;
    extended_by_license_id: string | null; date_created: string;
  }>;
  banned: Set<string>;
}

const at = (o: number | null) => (o == null ? null : iso(NOW + o));

function rowsOf(w: World): Rows {
  const certificates = w.certificates.map((c, i) => ({
    distinguished_name: `CN=c${String(i).padStart(2, '0')}`,
    organization_id: ORGANIZATIONS[c.organization],
    date_not_before: iso(NOW + c.notBefore),
    date_not_after: iso(NOW + c.notAfter),
    date_approved: at(c.approved),
    date_revoked: at(c.revoked),
    date_expiry_acknowledged: at(c.acknowledged),
    // Creation order differs from the name order, so the pending order is checked too.
    date_created: iso(NOW - 100 * DAY + ((i * 7) % 12) * 1000 + i),
  }));
  const licenses = w.licenses.map((l, i) => ({
    license_id: `l${String(i).padStart(2, '0')}`,
    organization_id: ORGANIZATIONS[l.organization],
    date_valid_from: iso(NOW + l.validFrom),
    date_valid_until: iso(NOW + l.validUntil),
    date_approved: at(l.approved),
    date_rejected: at(l.rejected),
    date_expiry_acknowledged: at(l.acknowledged),
    extended_by_license_id: l.successor != null && l.successor < w.licenses.length && l.successor !== i ? `l${String(l.successor).padStart(2, '0')}` : null,
    date_created: iso(NOW - 100 * DAY + ((i * 5) % 12) * 1000 + i),
  }));
  return { certificates, licenses, banned: new Set(ORGANIZATIONS.filter((_, i) => w.banned[i])) };
}

/** The status of a license as the API computes it: a rejected successor extends nothing (licenses/service.ts). */
function licenseStatusOf(rows: Rows, l: Rows['licenses'][number], now: Date) {
  const s = rows.licenses.find((x) => x.license_id === l.extended_by_license_id);
  return licenseStatus({ ...l, extended_by: s && !s.date_rejected ? { date_approved: s.date_approved } : null }, now);
}

async function store(db: Db, rows: Rows) {
  await db.deleteFrom('licenses').execute();
  await db.deleteFrom('certificates').execute();
  await db.deleteFrom('organizations').execute();
  await db.insertInto('organizations').values(ORGANIZATIONS.map((id) => ({
    organization_id: id, organization_name: id, organization_role: 'CUSTOMER' as const, parent_organization_id: null,
    website: null, logo_url: null, address: null, ban_note: null,
    date_organization_banned: rows.banned.has(id) ? iso(NOW - DAY) : null, date_created: iso(NOW - 200 * DAY),
  }))).execute();
  await db.insertInto('certificates').values(rows.certificates.map((c) => ({
    ...c, dn_search: c.distinguished_name.toLowerCase(), description: '', owner_member_id: null, approver_member_id: null,
    certificate_pem: 'PEM', serial_number: c.distinguished_name.slice(3).toUpperCase(), signature: 'AA', signature_algorithm: 'Ed25519', version: 1,
  }))).execute();
  await db.insertInto('licenses').values(rows.licenses.map((l) => ({
    ...l, extended_by_license_id: null, license_name: `License ${l.license_id}`, name_search: `license ${l.license_id}`,
    license_scope: 'LAB' as const, days_valid: 1, note: null, approver_member_id: null, version: 1,
  }))).execute();
  for (const l of rows.licenses) {
    if (l.extended_by_license_id) await db.updateTable('licenses').set({ extended_by_license_id: l.extended_by_license_id }).where('license_id', '=', l.license_id).execute();
  }
}

/** Every generated date, as instants: where any status may turn. */
function boundaries(rows: Rows): number[] {
  const all = [
    ...rows.certificates.flatMap((c) => [c.date_not_before, c.date_not_after]),
    ...rows.licenses.flatMap((l) => [l.date_valid_from, l.date_valid_until]),
  ].map((d) => Date.parse(d));
  return [...new Set(all)].sort((a, b) => a - b);
}

/**
 * The first instant after `now` at which `select` (a set of keys, from the status functions) differs
 * from what it is at `now`, or Infinity: statuses are constant between the generated dates and turn
 * at them, so only those need to be tried.
 */
function firstChange(rows: Rows, now: number, select: (at: Date) => string[]): number {
  const current = select(new Date(now)).join('|');
  for (const b of boundaries(rows)) if (b > now && select(new Date(b)).join('|') !== current) return b;
  return Infinity;
}

const FLAGS = [false, true].flatMap((hideExpired) => [false, true].flatMap((hideRequests) => [false, true].map((hideValid) => ({ hideExpired, hideRequests, hideValid }))));
const sorted = (keys: string[]) => [...keys].sort();
const byKeys = <T>(rows: T[], ...keys: Array<(r: T) => string>) =>
  [...rows].sort((a, b) => { for (const k of keys) { const x = k(a); const y = k(b); if (x !== y) return x < y ? -1 : 1; } return 0; });

async function checkAt(db: Db, rows: Rows, now: Date) {
  const where = `at ${now.toISOString()}`;
  const certificate = new Map(rows.certificates.map((c) => [c.distinguished_name, certificateStatus(c, now)]));
  const license = new Map(rows.licenses.map((l) => [l.license_id, licenseStatusOf(rows, l, now)]));

  // The list filters: each toggle hides exactly the rows the status names.
  for (const flags of FLAGS) {
    const expectedCertificates = rows.certificates.filter((c) => {
      const s = certificate.get(c.distinguished_name)!;
      return !(flags.hideExpired && s.expired) && !(flags.hideRequests && s.approval === 'NOT_APPROVED') && !(flags.hideValid && s.valid);
    }).map((c) => c.distinguished_name);
    const expectedLicenses = rows.licenses.filter((l) => {
      const s = license.get(l.license_id)!;
      return !(flags.hideExpired && s.expired) && !(flags.hideRequests && s.badges.includes('NOT_APPROVED')) && !(flags.hideValid && s.badges.includes('VALID'));
    }).map((l) => l.license_id);
    for (const organizations of ['all', [ORGANIZATIONS[0], ORGANIZATIONS[1]]] as const) {
      const scope = organizations === 'all' ? () => true : (id: string) => organizations.includes(id);
      const label = `${where} ${JSON.stringify(flags)} ${organizations}`;
      const c = await listCertificates(db, organizations === 'all' ? 'all' : [...organizations], { ...PAGE, ...flags }, now);
      const wantC = expectedCertificates.filter((dn) => scope(rows.certificates.find((x) => x.distinguished_name === dn)!.organization_id));
      expect(sorted(c.rows.map((r) => r.distinguished_name)), `certificates ${label}`).toEqual(sorted(wantC));
      expect(c.total, `certificate total ${label}`).toBe(wantC.length);
      const l = await listLicenses(db, organizations === 'all' ? 'all' : [...organizations], { ...PAGE, ...flags }, now);
      const wantL = expectedLicenses.filter((id) => scope(rows.licenses.find((x) => x.license_id === id)!.organization_id));
      expect(sorted(l.rows.map((r) => r.license_id)), `licenses ${label}`).toEqual(sorted(wantL));
      expect(l.total, `license total ${label}`).toBe(wantL.length);
    }
  }

  // The status chips (issue 12): each alone, and groups together, let through exactly the rows whose
  // statuses the functions name; "expiring within N days" and the range on the end of validity too.
  const certificateChoices: CertificateStatusFilter[][] = [...CERTIFICATE_STATUS_FILTERS.map((s) => [s]), ['approved', 'expired'], ['approved', 'not_approved', 'valid', 'acknowledged']];
  for (const chosen of certificateChoices) {
    const want = rows.certificates.filter((c) => passesStatuses(CERTIFICATE_STATUS_GROUPS, chosen, (f) => certificateHasStatus(certificate.get(c.distinguished_name)!, f)));
    const got = await listCertificates(db, 'all', { ...PAGE, status: chosen }, now);
    expect(sorted(got.rows.map((r) => r.distinguished_name)), `certificates with ${chosen} ${where}`).toEqual(sorted(want.map((c) => c.distinguished_name)));
    expect(got.total).toBe(want.length);
  }
  const licenseChoices: LicenseStatusFilter[][] = [...LICENSE_STATUS_FILTERS.map((s) => [s]), ['valid', 'expired', 'extension_requested'], ['approved', 'acknowledged', 'extended']];
  for (const chosen of licenseChoices) {
    const want = rows.licenses.filter((l) => passesStatuses(LICENSE_STATUS_GROUPS, chosen, (f) => licenseHasStatus(license.get(l.license_id)!, f)));
    const got = await listLicenses(db, 'all', { ...PAGE, status: chosen }, now);
    expect(sorted(got.rows.map((r) => r.license_id)), `licenses with ${chosen} ${where}`).toEqual(sorted(want.map((l) => l.license_id)));
    expect(got.total).toBe(want.length);
  }
  for (const days of [1, 30]) {
    // Not yet expired, and the end at most N days of 24 hours away: days_left ≤ N for licenses.
    const within = (end: string) => Date.parse(end) > now.getTime() && Date.parse(end) <= now.getTime() + days * DAY;
    const c = await listCertificates(db, 'all', { ...PAGE, expiringWithin: days }, now);
    expect(sorted(c.rows.map((r) => r.distinguished_name)), `certificates expiring within ${days} ${where}`).toEqual(sorted(rows.certificates.filter((x) => within(x.date_not_after)).map((x) => x.distinguished_name)));
    const l = await listLicenses(db, 'all', { ...PAGE, expiringWithin: days }, now);
    const wantL = rows.licenses.filter((x) => { const left = license.get(x.license_id)!.days_left; return left >= 0 && left <= days; });
    expect(sorted(l.rows.map((r) => r.license_id)), `licenses expiring within ${days} ${where}`).toEqual(sorted(wantL.map((x) => x.license_id)));
  }
  const range = { untilFrom: iso(now.getTime() - DAY), untilBefore: now.toISOString() };
  const inRange = (end: string) => end >= range.untilFrom && end < range.untilBefore;
  const cr = await listCertificates(db, 'all', { ...PAGE, ...range }, now);
  expect(sorted(cr.rows.map((r) => r.distinguished_name)), `certificates ending in the day before ${where}`).toEqual(sorted(rows.certificates.filter((x) => inRange(x.date_not_after)).map((x) => x.distinguished_name)));
  const lr = await listLicenses(db, 'all', { ...PAGE, ...range }, now);
  expect(sorted(lr.rows.map((r) => r.license_id)), `licenses ending in the day before ${where}`).toEqual(sorted(rows.licenses.filter((x) => inRange(x.date_valid_until)).map((x) => x.license_id)));

  // Pending approvals and acknowledgements, in their order.
  const certificateApprovals = byKeys(rows.certificates.filter((c) => certificate.get(c.distinguished_name)!.approval === 'NOT_APPROVED'), (c) => c.date_created, (c) => c.distinguished_name);
  const certificateAcknowledgements = byKeys(rows.certificates.filter((c) => certificate.get(c.distinguished_name)!.pending_acknowledgement), (c) => c.date_not_after, (c) => c.distinguished_name);
  const pc = await listPendingCertificates(db, 'all', 'approval', now, PAGE);
  expect(pc.rows.map((r) => r.distinguished_name), `pending certificate approvals ${where}`).toEqual(certificateApprovals.map((c) => c.distinguished_name));
  expect(pc.total).toBe(certificateApprovals.length);
  const ac = await listPendingCertificates(db, 'all', 'acknowledgement', now, PAGE);
  expect(ac.rows.map((r) => r.distinguished_name), `pending certificate acknowledgements ${where}`).toEqual(certificateAcknowledgements.map((c) => c.distinguished_name));
  expect(ac.total).toBe(certificateAcknowledgements.length);

  const licenseApprovals = byKeys(rows.licenses.filter((l) => license.get(l.license_id)!.approval === 'NOT_APPROVED'), (l) => l.date_created, (l) => l.license_id);
  const licenseAcknowledgements = byKeys(rows.licenses.filter((l) => license.get(l.license_id)!.pending_acknowledgement), (l) => l.date_valid_until, (l) => l.license_id);
  const pl = await listPendingLicenses(db, 'all', 'approval', now, PAGE);
  expect(pl.rows.map((r) => r.license_id), `pending license approvals ${where}`).toEqual(licenseApprovals.map((l) => l.license_id));
  expect(pl.total).toBe(licenseApprovals.length);
  const al = await listPendingLicenses(db, 'all', 'acknowledgement', now, PAGE);
  expect(al.rows.map((r) => r.license_id), `pending license acknowledgements ${where}`).toEqual(licenseAcknowledgements.map((l) => l.license_id));
  expect(al.total).toBe(licenseAcknowledgements.length);

  // The gateway archive: approved, not revoked, valid, of an organization not banned, in its order.
  const trusted = (t: Date) => rows.certificates.filter((c) => {
    const s = certificateStatus(c, t);
    return s.approval === 'APPROVED' && s.valid && !rows.banned.has(c.organization_id);
  }).map((c) => c.distinguished_name);
  const built = await buildCertsArchive(db, now);
  const now_ = trusted(now);
  expect(await manifestNames(built.archive.body), `archive ${where}`).toEqual(
    byKeys(rows.certificates.filter((c) => now_.includes(c.distinguished_name)), (c) => c.organization_id, (c) => c.distinguished_name).map((c) => c.distinguished_name),
  );
  // It is built again no later than its selection changes; exactly then when every window is non-empty.
  const change = firstChange(rows, now.getTime(), trusted);
  if (rows.certificates.every((c) => c.date_not_before < c.date_not_after)) expect(built.until, `archive change ${where}`).toBe(change);
  else expect(built.until, `archive change ${where}`).toBeLessThanOrEqual(change);
}

/** The DNs manifest.json of a certs archive names, in its order. */
async function manifestNames(body: Buffer): Promise<string[]> {
  let manifest = '';
  await new Promise<void>((resolve, reject) => {
    const parser = new Parser({
      onReadEntry: (entry) => {
        if (entry.path !== 'manifest.json') return entry.resume();
        entry.on('data', (chunk: Buffer) => { manifest += chunk.toString('utf8'); });
      },
    });
    parser.on('end', resolve);
    parser.on('error', reject);
    Readable.from([gunzipSync(body)]).pipe(parser);
  });
  return (JSON.parse(manifest) as { certificates: Array<{ distinguished_name: string }> }).certificates.map((c) => c.distinguished_name);
}

describe.each(dialects)('statuses in SQL agree with common/status.ts on %s', (dialect) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
  });
  afterAll(async () => {
    if (database) await closeArchiveBuilder(database.db);
    await database?.drop();
  });

  it('every filter, pending list and archive selection returns exactly the rows the status functions name', async () => {
    await fc.assert(
      fc.asyncProperty(world, async (w) => {
        const rows = rowsOf(w);
        await store(database.db, rows);
        const instants = boundaries(rows);
        const extra = w.extra.map(([i, d]) => instants[i % instants.length] + d);
        for (const t of [NOW, ...extra]) await checkAt(database.db, rows, new Date(t));
      }),
      // STATUS_RUNS=1000 for a longer hunt.
      { numRuns: Number(process.env.STATUS_RUNS) || (dialect === 'sqlite' ? 60 : 25) },
    );
  }, 240_000);
});
