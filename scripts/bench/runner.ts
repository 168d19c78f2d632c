/**
 * The measurement: each target at 50 connections right after bare Fastify at 50 connections
 * (interleaved, so both see the same machine), in rounds; the portal's event-loop delay and RSS
 * during each run; one client at a time where a target has a single-client limit. A run that
 * drives the portal's RSS past BENCH_RSS_ABORT_MB, or leaves it unable to answer, is stopped,
 * the portal restarted, and the target marked as aborted (not run again).
 */
import type { BenchConfig } from './config';
import { load, startLoad, type LoadResult } from './load';
import { cpuSeconds, sampleMemory, sampleRss, scrapeMetrics, startPortal, waitIdle, type ServerProcess } from './servers';
import type { Target } from './targets';

interface RoundResult {
  round: number;
  bare: LoadResult;
  portal: LoadResult;
  ratio: number;
  eventLoopP99Ms: number | null;
  eventLoopMaxMs: number | null;
  rssPeakMb: number | null;
  /** Peak RSS of the portal with its child processes (the archive builder). */
  rssWithChildrenMb: number | null;
  /** CPU microseconds per answer: the portal's (until idle after the run) and bare Fastify's. */
  cpuUs: { portal: number | null; bare: number | null };
  single?: LoadResult;
}

export interface TargetRun {
  target: Target;
  /** The answer to one request before the load: status, size, X-Total-Count, time. */
  probe?: { status: number; bytes: number; totalCount: string | null; ms: number };
  rounds: RoundResult[];
  /** Why the target was not (fully) measured. */
  aborted?: string;
}

export interface Portal {
  current: ServerProcess;
  /** Kills the portal (it is past a limit or stuck) and starts it again on the same port and database. */
  restart(reason: string): Promise<void>;
}

export async function makePortal(port: number, env: Record<string, string>, log: (line: string) => void): Promise<Portal> {
  const portal: Portal = {
    current: await startPortal(port, env),
    async restart(reason) {
      log(`    restarting the portal: ${reason}`);
      await portal.current.stop(true);
      portal.current = await startPortal(port, env);
    },
  };
  return portal;
}

async function probe(url: string, headers: Record<string, string>) {
  const started = performance.now();
  const response = await fetch(url, { headers, signal: AbortSignal.timeout(300_000) });
  const body = Buffer.from(await response.arrayBuffer());
  return {
    status: response.status, bytes: body.length, totalCount: response.headers.get('x-total-count'), etag: response.headers.get('etag'),
    ms: performance.now() - started,
  };
}

/** CPU microseconds per expected answer between two readings of cpuSeconds. */
function perAnswer(before: number | null, after: number | null, result: LoadResult): number | null {
  return before == null || after == null || result.expected === 0 ? null : ((after - before) * 1e6) / result.expected;
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function runTargets(
  config: BenchConfig, portal: Portal, bare: ServerProcess, targets: Target[], tokens: Record<Target['as'], string>,
  busy: () => Promise<boolean>, log: (line: string) => void,
): Promise<TargetRun[]> {
  const runs: TargetRun[] = [];
  const headersOf = new Map<Target, Record<string, string>>();
  for (const target of targets) {
    const run: TargetRun = { target, rounds: [] };
    runs.push(run);
    // As the web app's browser asks (Chromium's Accept-Encoding): the portal sends kept pages gzipped to it.
    const headers: Record<string, string> = { authorization: `Bearer ${tokens[target.as]}`, 'accept-encoding': 'gzip, deflate, br, zstd' };
    try {
      const first = await probe(`${portal.current.url}${target.path}`, headers);
      if (target.conditional && first.etag) headers['if-none-match'] = first.etag;
      const answer = target.conditional ? await probe(`${portal.current.url}${target.path}`, headers) : first;
      run.probe = { status: answer.status, bytes: answer.bytes, totalCount: answer.totalCount, ms: first.ms };
      const expected = target.conditional ? 304 : 200;
      if (answer.status !== expected) run.aborted = `answered ${answer.status}, not ${expected}`;
    } catch (error) {
      run.aborted = `no answer to one request: ${(error as Error).message}`;
    }
    headersOf.set(target, headers);
    log(`  probe ${target.id}: ${run.aborted ?? `${run.probe!.status}, ${run.probe!.bytes} bytes, ${run.probe!.ms.toFixed(0)} ms`}`);
  }

  const connections = config.connections;
  for (let round = 1; round <= config.rounds; round++) {
    log(`Round ${round} of ${config.rounds}`);
    for (const run of runs) {
      if (run.aborted) continue;
      const { target } = run;
      const headers = headersOf.get(target)!;
      const expect = target.conditional ? 304 : 200;
      const bareCpu = cpuSeconds(bare.pid);
      const bareResult = await load({ url: `${bare.url}/`, connections, duration: config.duration, expect: 200 });
      const bareUs = perAnswer(bareCpu, cpuSeconds(bare.pid), bareResult);

      await scrapeMetrics(portal.current.url); // resets the event-loop histogram
      let overLimit: string | undefined;
      const portalCpu = cpuSeconds(portal.current.pid);
      const memory = sampleMemory(portal.current.pid);
      const running = startLoad({ url: `${portal.current.url}${target.path}`, headers, connections, duration: config.duration, expect });
      const rss = sampleRss(portal.current.pid, (mb) => {
        if (mb > config.rssAbortMb && !overLimit) {
          overLimit = `RSS ${mb.toFixed(0)} MB passed ${config.rssAbortMb} MB`;
          running.stop();
        }
      });
      const result = await running.result;
      // The run lasts until the portal has finished the requests it had read: its event-loop delay and RSS until then count.
      const idle = overLimit ? false : await waitIdle(portal.current.pid, portal.current.url, busy, 120_000);
      const metrics = overLimit ? null : await scrapeMetrics(portal.current.url, 30_000);
      const rssPeakMb = rss.stop();
      const { withChildrenMb } = memory.stop();
      const portalUs = perAnswer(portalCpu, cpuSeconds(portal.current.pid), result);
      const unresponsive = overLimit ? undefined : !idle ? 'still busy 2 minutes after the run' : !metrics ? 'no answer to /metrics after the run' : undefined;
      const roundResult: RoundResult = {
        round, bare: bareResult, portal: result, ratio: result.rps / bareResult.rps, cpuUs: { portal: portalUs, bare: bareUs },
        eventLoopP99Ms: metrics?.eventLoopP99Ms ?? null, eventLoopMaxMs: metrics?.eventLoopMaxMs ?? null,
        rssPeakMb: rssPeakMb ?? metrics?.rssMb ?? null, rssWithChildrenMb: withChildrenMb,
      };
      run.rounds.push(roundResult);
      if (overLimit || unresponsive) {
        run.aborted = `round ${round}: ${overLimit ?? unresponsive}`;
        log(`  ${target.id}: aborted, ${run.aborted}; ${(roundResult.ratio * 100).toFixed(2)} % of bare until then, RSS ${roundResult.rssPeakMb?.toFixed(0)} MB`);
        await portal.restart(run.aborted);
        continue;
      }
      if (target.singleP99Ms) {
        roundResult.single = await load({ url: `${portal.current.url}${target.path}`, headers, connections: 1, duration: config.singleDuration, expect });
      }
      log(
        `  ${target.id}: ${(roundResult.ratio * 100).toFixed(2)} % of bare (${result.rps.toFixed(0)}/${bareResult.rps.toFixed(0)} req/s), ` +
          `p50 ${result.p50Ms.toFixed(0)} ms, p99 ${result.p99Ms.toFixed(0)} ms (${result.unfinished} unanswered at the end, ${result.starved} connections never answered), event loop p99 ${roundResult.eventLoopP99Ms?.toFixed(0)} ms, RSS ${roundResult.rssPeakMb?.toFixed(0)} MB (with children ${withChildrenMb?.toFixed(0)} MB), ` +
          `CPU per answer ${portalUs?.toFixed(0)} µs (bare ${bareUs?.toFixed(0)} µs)` +
          (result.unexpected ? `, ${result.unexpected} unexpected (${JSON.stringify(result.statuses)}, ${result.timeouts} timeouts)` : '') +
          (roundResult.single ? `; 1 client p99 ${roundResult.single.p99Ms.toFixed(1)} ms` : ''),
      );
      await pause(500);
    }
  }
  return runs;
}

export interface RebuildResult {
  runsMs: number[];
  eventLoopP99Ms: (number | null)[];
  error?: string;
}

/**
 * The certificate archive after a change: approve one waiting certificate, then time one full
 * GET of the archive (a rebuild), with the event-loop delay during it.
 */
export async function measureRebuild(
  portal: Portal, tokens: Record<'supervisor' | 'devops' | 'approver', string>, times: number, busy: () => Promise<boolean>,
): Promise<RebuildResult> {
  const result: RebuildResult = { runsMs: [], eventLoopP99Ms: [] };
  const url = portal.current.url;
  try {
    await waitIdle(portal.current.pid, url, busy, 120_000);
    const pending = await fetch(`${url}/api/approve`, { headers: { authorization: `Bearer ${tokens.supervisor}` }, signal: AbortSignal.timeout(300_000) });
    const { certificates } = (await pending.json()) as { certificates: { distinguished_name: string }[] };
    for (const certificate of certificates.slice(0, times)) {
      const approve = await fetch(`${url}/api/approve/${encodeURIComponent(certificate.distinguished_name)}`, {
        method: 'POST', headers: { authorization: `Bearer ${tokens.approver}` }, signal: AbortSignal.timeout(60_000),
      });
      if (approve.status !== 204) throw new Error(`approving a certificate answered ${approve.status}: ${await approve.text()}`);
      await scrapeMetrics(url);
      const answer = await probe(`${url}/api/piston/certs`, { authorization: `Bearer ${tokens.devops}` });
      if (answer.status !== 200) throw new Error(`the archive answered ${answer.status}`);
      result.runsMs.push(answer.ms);
      result.eventLoopP99Ms.push((await scrapeMetrics(url))?.eventLoopP99Ms ?? null);
    }
    if (result.runsMs.length === 0) result.error = 'no certificate waits for approval';
  } catch (error) {
    result.error = (error as Error).message;
  }
  return result;
}
