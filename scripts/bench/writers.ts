/**
 * (d) Writers: closed loops (each uploads a fresh certificate, then approves it, then again), 20 in
 * 20 organizations and 20 in the one large organization, notifications on as in production. Reports
 * writes per second, their p99, refusals (409: "changed at the same moment") and, on PostgreSQL, the
 * deadlocks the database counted meanwhile.
 */
import type { PreparedDatabase } from './database';
import type { Stage } from './loaded';
import type { Organization } from './people';
import { cpuSeconds, sampleMemory, scrapeMetrics, waitIdle } from './servers';
import { summarizeWrites } from './writer';
import type { WriteOutcome, Writes } from './writes';

export interface WritersRun {
  name: string;
  writers: number;
  perSecond: number;
  ok: number;
  p50Ms: number;
  p99Ms: number;
  refusals: number;
  failures: Record<string, number>;
  samples: string[];
  deadlocks: number | null;
  cpuMsPerWrite: number | null;
  eventLoopP99Ms: number | null;
  rssMb: number | null;
  rssWithChildrenMb: number | null;
}

async function deadlocks(database: PreparedDatabase): Promise<number | null> {
  if (database.serverEnv.DATABASE_URL === undefined) return null;
  const rows = await database.query<{ n: string }>('select deadlocks as n from pg_stat_database where datname = current_database()');
  return Number(rows[0]?.n ?? 0);
}

/** One writer: upload, approve its upload, until the time is up. */
async function loop(writes: Writes, organization: Organization, until: number, outcomes: WriteOutcome[]): Promise<void> {
  while (performance.now() < until) {
    const upload = await writes.write('upload', organization);
    if (!upload) return;
    outcomes.push(upload);
    if (upload.dn) outcomes.push(await writes.approve(upload.dn));
  }
}

export async function runWriters(stage: Stage, database: PreparedDatabase, writes: Writes, name: string, organizations: Organization[]): Promise<WritersRun> {
  const { portal, config } = stage;
  const pid = portal.current.pid;
  await waitIdle(pid, portal.current.url, stage.busy, 120_000);
  await scrapeMetrics(portal.current.url);
  const memory = sampleMemory(pid);
  const deadlocksBefore = await deadlocks(database);
  const cpu = cpuSeconds(pid);
  const outcomes: WriteOutcome[] = [];
  const started = performance.now();
  await Promise.all(organizations.map((o) => loop(writes, o, started + config.duration * 1000, outcomes)));
  const seconds = (performance.now() - started) / 1000;
  await waitIdle(pid, portal.current.url, stage.busy, 120_000);
  const cpuAfter = cpuSeconds(pid);
  const metrics = await scrapeMetrics(portal.current.url, 30_000);
  const { portalMb, withChildrenMb } = memory.stop();
  const deadlocksAfter = await deadlocks(database);
  const summary = summarizeWrites(outcomes);
  const result: WritersRun = {
    name, writers: organizations.length, perSecond: summary.ok / seconds, ...summary, refusals: summary.failures['409'] ?? 0,
    deadlocks: deadlocksBefore == null || deadlocksAfter == null ? null : deadlocksAfter - deadlocksBefore,
    cpuMsPerWrite: cpu == null || cpuAfter == null || !summary.ok ? null : ((cpuAfter - cpu) * 1000) / summary.ok,
    eventLoopP99Ms: metrics?.eventLoopP99Ms ?? null, rssMb: portalMb, rssWithChildrenMb: withChildrenMb,
  };
  stage.log(`  ${name}: ${result.perSecond.toFixed(1)} writes/s, p50 ${result.p50Ms.toFixed(0)} ms, p99 ${result.p99Ms.toFixed(0)} ms, ${result.refusals} refused (409), ` +
    `failures ${JSON.stringify(result.failures)}${result.samples.length ? ` (${result.samples.join(' | ')})` : ''}, deadlocks ${result.deadlocks ?? '–'}, ` +
    `CPU ${result.cpuMsPerWrite?.toFixed(2)} ms per write, event loop p99 ${result.eventLoopP99Ms?.toFixed(0)} ms, RSS ${portalMb?.toFixed(0)} / ${withChildrenMb?.toFixed(0)} MB`);
  return result;
}
