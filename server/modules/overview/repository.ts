/**
 * The overview's counts (docs/decisions.md "Overview"): one query per table of conditional counts
 * over the organizations' rows, with the statuses of db/status-sql.ts (the lists' chips), so each
 * count is what the list filtered on that status totals. Dates are `toISOString()` text, so the
 * windows and months are comparisons of text.
 *
 * Certificates: the counts read only columns of `certificates_list` (migration 0006: organization,
 * name, not-after, not-before, approved, revoked), so SQLite answers them from that index alone,
 * never from the rows with their PEMs. "Expiry acknowledged" is in no index of an organization;
 * it is counted apart (acknowledgedCertificates). Licenses have no PEM: their counts read the rows.
 */
import { sql, type Expression, type SqlBool } from 'kysely';
import { isPostgres, type Queryable } from '../../db/database';
import { after, earliest, within } from '../../db/next-instant';
import { certificateSql, licenseSql } from '../../db/status-sql';
import { compiledOnce } from '../../db/compiled';
import { EXPIRING_PRESETS, type LicenseStatusFilter } from '../../../common/status-filters';
import { DAY } from '../../../common/dates';
import { EXPIRY_MONTHS, type OverviewCertificateCounts, type OverviewLicenseCounts, type OverviewJournalEntry } from '../../../common/schemas/overview';

/** The rows of these organizations ('all': every organization). */
export type Scope = 'all' | string[];

/**
 * On SQLite every organization's rows are counted a sixteenth at a time, by the first character of their ids (the
 * parts' bounds), with the event loop free between the statements: a SQLite statement holds it, and counting all
 * 150,000 certificates and licenses in two statements (~350 ms) kept every other request waiting. Counts of parts add
 * up; each organization is in exactly one part (the first is open below, the last above, so any id falls in one), and
 * so counted as of one moment. A PostgreSQL statement waits on its socket, not the event loop: there every
 * organization is counted in one (in parts it took 70 % longer).
 */
const BOUNDS = [...'123456789abcdef'];
const PARTS = [null, ...BOUNDS].map((from, i) => ({ from, before: BOUNDS[i] ?? null }));
const WHOLE = { from: null, before: null };
/** What changes a count query's text: some organizations by id, or which ends of a part are bounded (none: all). */
type Shape = { ids: boolean; from: boolean; before: boolean };

/** The organizations a count reads, as a condition on their id: `ids`, or a part's bounds, or none. */
function inScope(column: 'c.organization_id' | 'l.organization_id', shape: Shape, v: { ids: string[]; from: string; before: string }): Expression<SqlBool> {
  const id = sql.ref(column);
  if (shape.ids) return sql<SqlBool>`${id} in (${sql.join(v.ids)})`;
  const bounds = [...(shape.from ? [sql`${id} >= ${v.from}`] : []), ...(shape.before ? [sql`${id} < ${v.before}`] : [])];
  return bounds.length ? sql<SqlBool>`${sql.join(bounds, sql` and `)}` : sql<SqlBool>`true`;
}

/** The row of a counts query over `scope`; every organization's on SQLite as the parts' rows added up. */
async function countRow(
  query: (db: Queryable, shape: Shape, values: Instants) => Promise<unknown[]>, db: Queryable, scope: Scope, values: Instants,
): Promise<Record<string, number>> {
  const parts = scope !== 'all' ? [null] : isPostgres(db) ? [WHOLE] : PARTS;
  const sum: Record<string, number> = {};
  for (const part of parts) {
    const shape = { ids: part === null, from: part?.from != null, before: part?.before != null };
    const [row] = await query(db, shape, { ...values, from: part?.from ?? '', before: part?.before ?? '' });
    for (const [key, n] of Object.entries(row as Record<string, number | string>)) sum[key] = (sum[key] ?? 0) + Number(n);
    if (parts.length > 1) await new Promise((resolve) => setImmediate(resolve));
  }
  return sum;
}

/** `count(case when … then 1 end)`: the rows the condition lets through, in the one pass over the index. */
const countWhen = (condition: Expression<SqlBool>) => sql<number | string>`count(case when ${condition} then 1 end)`;

/** The instants a chart month starts at: the current month's start (UTC) and the next twelve. */
function monthStarts(now: Date): Date[] {
  return Array.from({ length: EXPIRY_MONTHS + 1 }, (_, k) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + k, 1)));
}

/** The chart's months: the current one from now, the others from their start; each before the next month's start. */
function chartMonths(now: Date): Array<{ from: string; before: string; month: string }> {
  const starts = monthStarts(now);
  return starts.slice(0, EXPIRY_MONTHS).map((start, k) => ({ from: (k === 0 ? now : start).toISOString(), before: starts[k + 1].toISOString(), month: start.toISOString().slice(0, 7) }));
}

export interface Counts<C> {
  counts: C;
  /** Per window of EXPIRING_PRESETS, in its order. */
  expiring: number[];
  /** Per chart month, in order. */
  months: Array<{ month: string; count: number }>;
  /** Expired and not acknowledged, waiting on Pending Tasks (their approvals are `counts.not_approved`). */
  pendingAcknowledgements: number;
}

/** The instants a count compares with, for `now`: the query's values (db/compiled.ts). */
function instantsOf(scope: Scope, now: Date) {
  const months = chartMonths(now);
  return {
    months,
    values: {
      at: now.toISOString(), ids: scope === 'all' ? [] : scope, from: '', before: '',
      within: EXPIRING_PRESETS.map((days) => until(now, days)), monthFrom: months.map((m) => m.from), monthBefore: months.map((m) => m.before),
    },
  };
}
type Instants = ReturnType<typeof instantsOf>['values'];

const certificateCountsQuery = compiledOnce((db: Queryable, shape: Shape, v: Instants) => {
  const c = certificateSql('c');
  const query = db.selectFrom('certificates as c').where(inScope('c.organization_id', shape, v));
  const approved = c.has('approved', v.at);
  return query.select((eb) => [
    eb.fn.countAll<number | string>().as('total'),
    countWhen(approved).as('approved'),
    countWhen(c.has('not_approved', v.at)).as('not_approved'),
    countWhen(c.has('revoked', v.at)).as('revoked'),
    countWhen(c.has('valid', v.at)).as('valid'),
    countWhen(c.has('expired', v.at)).as('expired'),
    ...v.within.map((end, i) => countWhen(eb.and([approved, c.expiringBy(v.at, end)])).as(`within_${i}`)),
    ...v.monthFrom.map((from, k) => countWhen(eb.and([approved, k === 0 ? c.notExpired(from) : c.endsFrom(from), c.endsBefore(v.monthBefore[k])])).as(`month_${k}`)),
  ]);
});

async function certificateCounts(db: Queryable, scope: Scope, now: Date): Promise<Counts<OverviewCertificateCounts>> {
  if (scope !== 'all' && scope.length === 0) return empty({ total: 0, approved: 0, not_approved: 0, revoked: 0, valid: 0, expired: 0, expiry_acknowledged: 0 }, now);
  const { months, values } = instantsOf(scope, now);
  const numbers = await countRow(certificateCountsQuery, db, scope, values);
  const pendingAcknowledgements = pendingCertificateAcknowledgements(db, scope, values.at);
  return {
    counts: {
      total: Number(numbers.total), approved: Number(numbers.approved), not_approved: Number(numbers.not_approved), revoked: Number(numbers.revoked),
      valid: Number(numbers.valid), expired: Number(numbers.expired),
      expiry_acknowledged: await acknowledgedCertificates(db, scope, Number(numbers.approved), Number(numbers.revoked)),
    },
    expiring: EXPIRING_PRESETS.map((_, i) => Number(numbers[`within_${i}`])),
    months: months.map(({ month }, k) => ({ month, count: Number(numbers[`month_${k}`]) })),
    pendingAcknowledgements: await pendingAcknowledgements,
  };
}

/** Where the overview changes its way of counting; tests make them small to take the other way. */
export const OVERVIEW_TUNING = {
  /** Up to this many approved or revoked certificates, their rows are read to count acknowledgements. */
  acknowledgedFromRows: 2000,
  /** Up to this many organizations, their journals are merged record by record; more, and the caller's own is shown. */
  mergedJournals: 20,
};

/**
 * Certificates with the Expiry acknowledged badge. Only an approved certificate that is not revoked
 * can be acknowledged (the date stays if it is revoked afterwards), and `date_expiry_acknowledged`
 * is in no index of the organization: a few hundred rows are read and counted, but a large
 * organization's rows are not (20,000 rows with their PEMs: 130 ms on SQLite). There the count is
 * approved − not acknowledged + revoked and acknowledged: the approved count comes from the
 * organization's index (above), the not acknowledged ones from the partial index of the pending
 * acknowledgements (migration 0009, which holds exactly the approved, unrevoked, unacknowledged
 * rows with their organization), and only the revoked rows are read. SQLite, which keeps no
 * statistics, is told the index (INDEXED BY): by itself it read every row of the organization.
 */
async function acknowledgedCertificates(db: Queryable, scope: Scope, approved: number, revoked: number): Promise<number> {
  const count = (index: string, condition: ReturnType<typeof sql>) => countCertificates(db, scope, index, condition);
  if (approved + revoked <= OVERVIEW_TUNING.acknowledgedFromRows) {
    return count('certificates_list', sql`c.date_approved is not null and c.date_expiry_acknowledged is not null`);
  }
  const [unacknowledged, revokedAcknowledged] = await Promise.all([
    count('certificates_pending_acknowledgement', sql`c.date_approved is not null and c.date_revoked is null and c.date_expiry_acknowledged is null`),
    count('certificates_list', sql`c.date_revoked is not null and c.date_expiry_acknowledged is not null`),
  ]);
  return approved - unacknowledged + revokedAcknowledged;
}

/** Certificates of the scope that meet `condition`, counted from `index` (SQLite is told it: see above). */
async function countCertificates(db: Queryable, scope: Scope, index: string, condition: ReturnType<typeof sql>): Promise<number> {
  const inScope = scope === 'all' ? sql`1 = 1` : sql`c.organization_id in (${sql.join(scope)})`;
  const from = isPostgres(db) ? sql`certificates as c` : sql`certificates as c indexed by ${sql.raw(index)}`;
  const { rows } = await sql<{ n: number | string }>`select count(*) as n from ${from} where ${inScope} and ${condition}`.execute(db);
  return Number(rows[0].n);
}

/**
 * The pending acknowledgements of certificates (the Pending Tasks' total), with the pending list's own condition
 * (db/status-sql.ts) and the planner's choice of index, as that list counts them. The pending approvals are the
 * counts' Not approved, the same condition.
 */
async function pendingCertificateAcknowledgements(db: Queryable, scope: Scope, at: string): Promise<number> {
  const [row] = await pendingAcknowledgementsQuery(db, scope === 'all', { at, ids: scope === 'all' ? [] : scope });
  return Number(row.n);
}

const pendingAcknowledgementsQuery = compiledOnce((db: Queryable, all: boolean, v: { at: string; ids: string[] }) => {
  let query = db.selectFrom('certificates as c');
  if (!all) query = query.where('c.organization_id', 'in', v.ids);
  return query.where(certificateSql('c').pendingAcknowledgement(v.at)).select((eb) => eb.fn.countAll<number | string>().as('n'));
});

/** The counted badges: the answer's field and the list's status chip. */
const LICENSE_BADGES: ReadonlyArray<[Exclude<keyof OverviewLicenseCounts, 'total'>, LicenseStatusFilter]> = [
  ['not_approved', 'not_approved'], ['approved', 'approved'], ['valid', 'valid'], ['rejected', 'rejected'], ['expired', 'expired'],
  ['extension_requested', 'extension_requested'], ['expiry_acknowledged', 'acknowledged'],
];

const licenseCountsQuery = compiledOnce((db: Queryable, shape: Shape, v: Instants) => {
  const l = licenseSql('l');
  const query = db.selectFrom('licenses as l').where(inScope('l.organization_id', shape, v));
  return query.select((eb) => {
    // Approved and not rejected, in force or not yet: what will run out (the chart).
    const decidedYes = eb.and([eb('l.date_approved', 'is not', null), eb('l.date_rejected', 'is', null)]);
    return [
      eb.fn.countAll<number | string>().as('total'),
      ...LICENSE_BADGES.map(([key, status]) => countWhen(l.has(status, v.at)).as(key)),
      countWhen(l.pendingAcknowledgement(v.at)).as('pending_acknowledgements'),
      ...v.within.map((end, i) => countWhen(eb.and([l.has('valid', v.at), l.expiringBy(v.at, end)])).as(`within_${i}`)),
      ...v.monthFrom.map((from, k) => countWhen(eb.and([decidedYes, k === 0 ? l.notExpired(from) : l.endsFrom(from), l.endsBefore(v.monthBefore[k])])).as(`month_${k}`)),
    ];
  });
});

async function licenseCounts(db: Queryable, scope: Scope, now: Date): Promise<Counts<OverviewLicenseCounts>> {
  const none = { total: 0, not_approved: 0, approved: 0, valid: 0, rejected: 0, expired: 0, extension_requested: 0, expiry_acknowledged: 0 };
  if (scope !== 'all' && scope.length === 0) return empty(none, now);
  const { months, values } = instantsOf(scope, now);
  const numbers = await countRow(licenseCountsQuery, db, scope, values);
  const counts = Object.fromEntries(Object.keys(none).map((key) => [key, Number(numbers[key])])) as OverviewLicenseCounts;
  return {
    counts,
    expiring: EXPIRING_PRESETS.map((_, i) => Number(numbers[`within_${i}`])),
    months: months.map(({ month }, k) => ({ month, count: Number(numbers[`month_${k}`]) })),
    pendingAcknowledgements: Number(numbers.pending_acknowledgements),
  };
}

/**
 * The counts of both tables: on PostgreSQL at once (a connection each); on SQLite, whose one connection runs them one
 * after the other anyway, in turn, so their parts (above) never run back to back without the event loop between.
 */
export async function overviewCounts(db: Queryable, scope: Scope, now: Date) {
  if (isPostgres(db)) {
    const [certificates, licenses] = await Promise.all([certificateCounts(db, scope, now), licenseCounts(db, scope, now)]);
    return { certificates, licenses };
  }
  const certificates = await certificateCounts(db, scope, now);
  return { certificates, licenses: await licenseCounts(db, scope, now) };
}

/**
 * The next instant after `now` at which a count changes by time alone: a certificate's or license's
 * validity starts or ends (valid, expired, the pending acknowledgements), one comes within a window
 * of EXPIRING_PRESETS, or the next month starts. Index seeks on the tables' date indexes: one organization's
 * (migration 0017), or all organizations' for more (a change elsewhere only makes the kept counts be counted again).
 */
export function nextCountChange(db: Queryable, scope: Scope, now: Date): () => Promise<number> {
  const of = scope !== 'all' && scope.length === 1 ? scope : 'all';
  return async () => Math.min(monthStarts(now)[1].getTime(), await earliest(db, now, [
    ...after('certificates', ['date_not_before', 'date_not_after'], of),
    ...after('licenses', ['date_valid_from', 'date_valid_until'], of),
    ...EXPIRING_PRESETS.flatMap((days) => [within('certificates', 'date_not_after', days * DAY, of), within('licenses', 'date_valid_until', days * DAY, of)]),
  ]));
}

const until = (now: Date, days: number) => new Date(now.getTime() + days * DAY).toISOString();

function empty<C>(counts: C, now: Date): Counts<C> {
  return { counts, expiring: EXPIRING_PRESETS.map(() => 0), months: chartMonths(now).map(({ month }) => ({ month, count: 0 })), pendingAcknowledgements: 0 };
}

const RECORD_COLUMNS = ['record_id', 'reason', 'date_created', 'member_email', 'message', 'organization_id'] as const;
const JOURNAL_COLUMNS = ['a.record_id', 'a.reason', 'a.date_created', 'a.member_email', 'a.message', 'a.organization_id', 'o.organization_name'] as const;

/**
 * The newest `limit` records of these organizations, newest first. Every organization: the newest
 * by record id (ids rise as records are written), read backwards from the primary key's end. A
 * few: each one's newest by its journal number, whole records from the index that holds them in
 * that order (migration 0033 on SQLite), merged. Never an organization's whole journal (a million records).
 */
export async function latestRecords(db: Queryable, scope: Scope, limit: number): Promise<OverviewJournalEntry[]> {
  if (scope !== 'all' && scope.length === 0) return [];
  let rows;
  if (scope === 'all') {
    rows = await db.selectFrom('audit_records as a').innerJoin('organizations as o', 'o.organization_id', 'a.organization_id').select(JOURNAL_COLUMNS)
      .where('a.organization_id', 'is not', null).orderBy('a.record_id', 'desc').limit(limit).execute();
  } else {
    const newest = (organizationId: string) =>
      db.selectFrom('audit_records').select(RECORD_COLUMNS).where('organization_id', '=', organizationId).orderBy('sequence', 'desc').limit(limit);
    // A LIMIT inside a union's member needs a subquery of its own on SQLite.
    const each = scope.map((id) => db.selectFrom(newest(id).as('n')).selectAll());
    const union = each.slice(1).reduce((all, next) => all.unionAll(next), each[0]);
    rows = await db.selectFrom(union.as('a')).innerJoin('organizations as o', 'o.organization_id', 'a.organization_id').select(JOURNAL_COLUMNS)
      .orderBy('a.record_id', 'desc').limit(limit).execute();
  }
  return rows.map((r) => ({ ...r, record_id: Number(r.record_id), organization_id: r.organization_id ?? '' }));
}

/** How many organizations there are (the admin overview of operator staff who read them all). */
export async function organizationCount(db: Queryable): Promise<number> {
  return Number((await db.selectFrom('organizations').select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow()).n);
}
