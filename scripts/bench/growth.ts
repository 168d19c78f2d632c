/**
 * (e) Growth: what one request costs when nothing is kept, as the first request after a write is.
 * One client: a write in the large organization (a description edit, which also journals), a pause for
 * what the write sets off, then one request, N times; the portal's CPU over the N requests (from /proc,
 * whose 10 ms ticks N requests average out) and each request's wall time. Then the archive after one
 * approval: the time until a gateway's poll with its ETag gets the new archive. Run at the usual size
 * and, with BENCH_GROWTH=10, on a set with 10× the certificates and journal records.
 */
import type { DatasetFacts } from './dataset';
import type { Stage } from './loaded';
import { cpuSeconds, sampleMemory } from './servers';
import { percentile } from './writer';
import type { Writes } from './writes';
import type { Organization } from './people';
import type { PreparedDatabase } from './database';

interface GrowthRequest {
  id: string;
  label: string;
  path: string;
  /** Portal CPU per request; on PostgreSQL with the database backends' CPU in `databaseCpuMs` beside it. */
  cpuMs: number | null;
  databaseCpuMs: number | null;
  wallP50Ms: number;
  wallP90Ms: number;
  failures: number;
}

export interface GrowthRun {
  requests: GrowthRequest[];
  /** Milliseconds from an approval's answer until a poll got the new archive. */
  rebuildMs: number[];
  rebuildError?: string;
  rssMb: number | null;
  rssWithChildrenMb: number | null;
}

function growthPaths(facts: DatasetFacts): { id: string; label: string; path: string }[] {
  const large = `/api/organizations/${facts.largeOrganizationId}`;
  const largeCertificates = Math.round(facts.sizes.certificates * 0.2);
  const deep = Math.max(0, Math.min(19_900, largeCertificates - 100));
  const adminDeep = Math.floor((facts.sizes.certificates * 0.9) / 100) * 100;
  const journal = Math.round(100_000 * (facts.largeJournal / 500_000));
  return [
    { id: 'list-first', label: 'large organization certificates, first page', path: `${large}/certificates?offset=0&limit=100` },
    { id: 'list-deep', label: `large organization certificates, offset ${deep.toLocaleString('en')}`, path: `${large}/certificates?offset=${deep}&limit=100` },
    { id: 'admin-deep', label: `admin certificate list, offset ${adminDeep.toLocaleString('en')}`, path: `/api/certificates?offset=${adminDeep}&limit=100` },
    { id: 'journal-deep', label: `journal, offset ${journal.toLocaleString('en')}`, path: `${large}/auditrecords?offset=${journal}&limit=100` },
    { id: 'journal-filter', label: `journal, text filter "${facts.journalFilter}"`, path: `${large}/auditrecords?filter=${encodeURIComponent(facts.journalFilter)}&offset=0&limit=100` },
  ];
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function timedGet(url: string, headers: Record<string, string>): Promise<{ status: number; ms: number; etag: string | null }> {
  const started = performance.now();
  const response = await fetch(url, { headers, signal: AbortSignal.timeout(120_000) });
  await response.arrayBuffer();
  return { status: response.status, ms: performance.now() - started, etag: response.headers.get('etag') };
}

async function measureRequest(
  stage: Stage, database: PreparedDatabase, writes: Writes, large: Organization, path: string, bearer: string,
): Promise<Omit<GrowthRequest, 'id' | 'label' | 'path'>> {
  const { portal, config } = stage;
  const headers = { authorization: `Bearer ${bearer}`, 'accept-encoding': 'gzip, deflate, br, zstd' };
  let cpu = 0;
  let databaseCpu = 0;
  let failures = 0;
  const walls: number[] = [];
  for (let i = 0; i < config.growthRepeats; i++) {
    const write = await writes.write('description', large);
    if (!write || write.status !== 200) failures++;
    await pause(100);
    const databaseBefore = await database.cpuSeconds();
    const before = cpuSeconds(portal.current.pid);
    const answer = await timedGet(`${portal.current.url}${path}`, headers);
    const after = cpuSeconds(portal.current.pid);
    const databaseAfter = await database.cpuSeconds();
    databaseCpu += databaseBefore == null || databaseAfter == null ? NaN : databaseAfter - databaseBefore;
    if (answer.status !== 200) failures++;
    walls.push(answer.ms);
    cpu += before == null || after == null ? NaN : after - before;
  }
  const perRequest = (seconds: number) => (Number.isNaN(seconds) ? null : (seconds * 1000) / config.growthRepeats);
  return { cpuMs: perRequest(cpu), databaseCpuMs: perRequest(databaseCpu), wallP50Ms: percentile(walls, 50), wallP90Ms: percentile(walls, 90), failures };
}

/** After one approval, polls the archive with the ETag held until it changes. */
async function measureRebuild(stage: Stage, writes: Writes, large: Organization, gatewayBearer: string, times: number): Promise<number[]> {
  const url = `${stage.portal.current.url}/api/piston/certs`;
  const runs: number[] = [];
  let etag = (await timedGet(url, { authorization: `Bearer ${gatewayBearer}` })).etag;
  for (let i = 0; i < times; i++) {
    const approval = await writes.write('approve', large);
    if (!approval || approval.status !== 204) throw new Error(`an approval answered ${approval?.status}: ${approval?.error}`);
    const approved = performance.now();
    for (;;) {
      const answer = await timedGet(url, { authorization: `Bearer ${gatewayBearer}`, ...(etag ? { 'if-none-match': etag } : {}) });
      if (answer.status === 200 && answer.etag !== etag) {
        etag = answer.etag;
        break;
      }
      if (answer.status !== 304 && answer.status !== 200) throw new Error(`the archive answered ${answer.status}`);
      if (performance.now() - approved > 120_000) throw new Error('no new archive 2 minutes after an approval');
      await pause(20);
    }
    runs.push(performance.now() - approved);
  }
  return runs;
}

export async function runGrowth(stage: Stage, database: PreparedDatabase, writes: Writes, large: Organization, supervisor: string, gatewayBearer: string): Promise<GrowthRun> {
  const memory = sampleMemory(stage.portal.current.pid);
  const requests: GrowthRequest[] = [];
  for (const { id, label, path } of growthPaths(database.facts)) {
    const measured = await measureRequest(stage, database, writes, large, path, supervisor);
    requests.push({ id, label, path, ...measured });
    const inDatabase = measured.databaseCpuMs ? ` + ${measured.databaseCpuMs.toFixed(2)} ms in the database` : '';
    stage.log(`  ${label}: ${measured.cpuMs?.toFixed(2)} ms portal CPU per request${inDatabase}, wall p50 ${measured.wallP50Ms.toFixed(1)} ms, p90 ${measured.wallP90Ms.toFixed(1)} ms${measured.failures ? `, ${measured.failures} failures` : ''}`);
  }
  let rebuildMs: number[] = [];
  let rebuildError: string | undefined;
  try {
    rebuildMs = await measureRebuild(stage, writes, large, gatewayBearer, 3);
    stage.log(`  archive after one approval: ${rebuildMs.map((m) => `${m.toFixed(0)} ms`).join(', ')}`);
  } catch (error) {
    rebuildError = (error as Error).message;
    stage.log(`  archive after one approval: ${rebuildError}`);
  }
  const { portalMb, withChildrenMb } = memory.stop();
  return { requests, rebuildMs, rebuildError, rssMb: portalMb, rssWithChildrenMb: withChildrenMb };
}
