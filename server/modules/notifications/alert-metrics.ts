/**
 * Gauges a Prometheus alert can use (issue 13 item 6), read from the database at a scrape and kept until they change:
 * per organization (labelled by id, never by name), what expires within 7 and 30 days, what
 * expired without acknowledgement, the approvals waiting and the age of the oldest, and webhook
 * deliveries that failed for good or are being retried.
 *
 * Each query reads the few matching rows through a partial or range index first (a MATERIALIZED common table
 * expression), then groups them by organization. Written as one grouped query, SQLite (which has no statistics)
 * walked an index by organization to group without sorting and read all 150,000 certificates and licenses: the
 * pending approvals took 0.4 s per read at the benchmark's scale, twice per scrape, on the event loop.
 */
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { keptFor } from '../../db/kept';
import { after, earliest, within } from '../../db/next-instant';
import { readGlobalVersion } from '../../db/versions';

const DAY = 86_400_000;

type Row = { organization_id: string; n: number | string };
type Series = Array<{ labels: Record<string, string>; value: number }>;

/** A label value in Prometheus' text format: backslash, quote and newline escaped. */
const labelValue = (value: string) => value.replace(/[\\"\n]/g, (c) => (c === '\n' ? '\\n' : `\\${c}`));

/** Label sets written once: a family whose values change at every scrape (the ages) keeps its label objects. */
const written = new WeakMap<Record<string, string>, string>();

function labelPairs(labels: Record<string, string>): string {
  let pairs = written.get(labels);
  if (pairs === undefined) {
    pairs = Object.entries(labels).map(([label, v]) => `${label}="${labelValue(v)}"`).join(',');
    written.set(labels, pairs);
  }
  return pairs;
}

/** One gauge family in Prometheus' text format (version 0.0.4), as prom-client writes it, encoded. */
function exposition(name: string, help: string, series: Series): Buffer {
  const lines = [`# HELP ${name} ${help}`, `# TYPE ${name} gauge`];
  for (const { labels, value } of series) lines.push(`${name}{${labelPairs(labels)}} ${value}`);
  return Buffer.from(`${lines.join('\n')}\n`);
}

/**
 * The families are written here, not through prom-client's gauges: at 5,000 organizations they are about 26,500 series,
 * and setting each (prom-client hashes every label set) then formatting it held the event loop 130–210 ms at a scrape
 * after a change. A kept read (below) keeps its text too, so most scrapes write nothing again.
 */
export function registerAlertMetrics(app: FastifyInstance): void {
  /** A family read at every scrape, or from a read kept elsewhere (what waits): written again when its series change. */
  const gauge = (name: string, help: string, read: (now: Date) => Promise<Series>) => {
    let shown: { series: Series; text: Buffer } | undefined;
    app.metricsText.push(async () => {
      const series = await read(app.now());
      if (series !== shown?.series) shown = { series, text: exposition(name, help, series) };
      return shown.text;
    });
  };

  // Each read is kept (db/kept.ts) until any organization's data changes (the global version, on any instance) or,
  // for those that read the clock, until the next instant a row's end passes now, now + 7 days or now + 30 days.
  // Most scrapes then read only the global version, once per gauge.
  const reads = keptFor<unknown>(app.db, 'alert-metrics', { entries: 100 });
  const kept = async <T>(key: string, now: Date, load: () => Promise<T>, table?: 'certificates' | 'licenses'): Promise<T> => {
    const end = table === 'certificates' ? 'date_not_after' : 'date_valid_until';
    const until = table && (() => earliest(app.db, now, [...after(table, [end]), ...[7, 30].map((days) => within(table, end, days * DAY))]));
    return reads.through(key, await readGlobalVersion(app.db), now.getTime(), load, until) as Promise<T>;
  };

  // Kept as text, not as its thousands of series: kept objects outlive the young generation, so each scrape after a
  // change promoted about 20,000 of them (5 MB at 5,000 organizations) and a full garbage collection soon followed.
  const keptFamily = (name: string, help: string, table: 'certificates' | 'licenses', read: (now: Date) => Promise<Series>) => {
    app.metricsText.push(() => {
      const now = app.now();
      return kept(name, now, async () => exposition(name, help, await read(now)), table);
    });
  };

  const expiring = async (table: 'certificates' | 'licenses', now: Date) => {
    const [end, live] = table === 'certificates'
      ? [sql.ref('date_not_after'), sql`date_approved is not null and date_revoked is null`]
      : [sql.ref('date_valid_until'), sql`date_approved is not null and date_rejected is null and extended_by_license_id is null`];
    const at = now.toISOString();
    const { rows } = await sql<Row & { n7: number | string }>`
      with ending as materialized (
        select organization_id, ${end} as date_end from ${sql.table(table)}
        where ${end} > ${at} and ${end} <= ${new Date(now.getTime() + 30 * DAY).toISOString()} and ${live})
      select organization_id, count(*) as n, sum(case when date_end <= ${new Date(now.getTime() + 7 * DAY).toISOString()} then 1 else 0 end) as n7
      from ending group by organization_id`.execute(app.db);
    return rows.flatMap((r) => [
      { labels: { organization_id: r.organization_id, within_days: '7' }, value: Number(r.n7) },
      { labels: { organization_id: r.organization_id, within_days: '30' }, value: Number(r.n) },
    ]);
  };
  const expired = async (table: 'certificates' | 'licenses', now: Date) => {
    const [end, live] = table === 'certificates'
      ? [sql.ref('date_not_after'), sql`date_approved is not null and date_revoked is null`]
      : [sql.ref('date_valid_until'), sql`date_approved is not null and extended_by_license_id is null`];
    const { rows } = await sql<Row>`
      with ended as materialized (
        select organization_id from ${sql.table(table)} where ${end} <= ${now.toISOString()} and date_expiry_acknowledged is null and ${live})
      select organization_id, count(*) as n from ended group by organization_id`.execute(app.db);
    return rows.map((r) => ({ labels: { organization_id: r.organization_id }, value: Number(r.n) }));
  };
  const readPending = async () => {
    const { rows } = await sql<Row & { kind: string; oldest: string }>`
      with waiting_certificates as materialized (
        select organization_id, date_created from certificates where date_approved is null and date_revoked is null),
      waiting_licenses as materialized (
        select organization_id, date_created from licenses where date_approved is null and date_rejected is null)
      select organization_id, 'certificate' as kind, count(*) as n, min(date_created) as oldest from waiting_certificates group by organization_id
      union all
      select organization_id, 'license' as kind, count(*) as n, min(date_created) as oldest from waiting_licenses group by organization_id`.execute(app.db);
    return rows;
  };
  // What waits does not read the clock: the two gauges of a scrape, and the scrapes in between, share one read.
  // The age is worked out at each scrape; the counts are kept with their read.
  // The ages' labels are the counts' label objects, so their text is written once per read, not at every scrape.
  let counted: { rows: unknown; series: Series } | undefined;
  const countsOf = (rows: Awaited<ReturnType<typeof readPending>>) => {
    if (counted?.rows !== rows) counted = { rows, series: rows.map((r) => ({ labels: { organization_id: r.organization_id, kind: r.kind }, value: Number(r.n) })) };
    return counted.series;
  };
  const pendingCounts = async (now: Date) => countsOf(await kept('pending', now, readPending));
  const pendingAges = async (now: Date) => {
    const rows = await kept('pending', now, readPending);
    const counts = countsOf(rows);
    return rows.map((r, i) => ({ labels: counts[i].labels, value: Math.max(0, (now.getTime() - Date.parse(r.oldest)) / 1000) }));
  };

  keptFamily('portal_certificates_expiring', 'Approved, unrevoked certificates whose validity ends within 7 or 30 days, per organization', 'certificates', (now) => expiring('certificates', now));
  keptFamily('portal_licenses_expiring', 'Approved licenses (not renewed) whose validity ends within 7 or 30 days, per organization', 'licenses', (now) => expiring('licenses', now));
  keptFamily('portal_certificates_expired_unacknowledged', 'Certificates expired and not acknowledged, per organization', 'certificates', (now) => expired('certificates', now));
  keptFamily('portal_licenses_expired_unacknowledged', 'Licenses expired and not acknowledged, per organization', 'licenses', (now) => expired('licenses', now));
  gauge('portal_pending_approvals', 'Certificates and licenses waiting for approval, per organization', pendingCounts);
  gauge('portal_pending_approval_oldest_age_seconds', 'How long the oldest waiting approval has waited, per organization', pendingAges);
  gauge('portal_webhook_deliveries', 'Webhook deliveries that failed for good, or are being retried after a failed attempt, per organization', async () => {
    const { rows } = await sql<Row & { state: string }>`
      select e.organization_id, case when d.status = 'failed' then 'failed' else 'retrying' end as state, count(*) as n
      from webhook_deliveries d join webhook_endpoints e on e.endpoint_id = d.endpoint_id
      where d.status = 'failed' or (d.status = 'pending' and d.attempts > 0)
      group by e.organization_id, case when d.status = 'failed' then 'failed' else 'retrying' end`.execute(app.db);
    return rows.map((r) => ({ labels: { organization_id: r.organization_id, state: r.state }, value: Number(r.n) }));
  });
}
