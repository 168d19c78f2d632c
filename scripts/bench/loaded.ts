/**
 * One loaded run of a real-use scenario, measured as the per-URL targets are (runner.ts): bare
 * Fastify at the same connections first, then the portal, with something else running beside the
 * portal's load if the scenario has it (a writer); the run lasts until the portal is idle again. Read
 * alongside: the portal's CPU per answer (/proc), its event-loop delay p99 (/metrics, reset by the
 * scrape before the run) and the RSS of the portal and of the portal with its child processes.
 */
import type { BenchConfig } from './config';
import { load, startLoad, type LoadOptions, type LoadResult } from './load';
import type { Portal } from './runner';
import { cpuSeconds, sampleMemory, scrapeMetrics, waitIdle, type Resident, type ServerProcess } from './servers';

export interface Stage {
  config: BenchConfig;
  portal: Portal;
  bare: ServerProcess;
  busy: () => Promise<boolean>;
  log: (line: string) => void;
}

export interface LoadedRun<T = undefined> {
  bare: LoadResult;
  portal: LoadResult;
  /** Answers with an expected status per second as a share of bare Fastify's. */
  ratio: number;
  /** Portal CPU µs per expected answer (everything the portal did in the run, writes included); bare Fastify's. */
  cpuUs: number | null;
  bareCpuUs: number | null;
  eventLoopP99Ms: number | null;
  rssMb: number | null;
  rssWithChildrenMb: number | null;
  /** The portal's resident set at its peak, and V8's heap and the Buffers outside it after the run (MiB). */
  memory: { atPeak: Resident | null; heapUsedMbAfter: number | null; externalMbAfter: number | null };
  idle: boolean;
  /** What ran beside the load (the writer's report). */
  beside?: T;
}

/** Something that runs beside the portal's load, started with it and stopped when it ends. */
export interface Beside<T> {
  start(): void;
  stop(): Promise<T>;
}

const perAnswer = (before: number | null, after: number | null, answers: number) =>
  before == null || after == null || answers === 0 ? null : ((after - before) * 1e6) / answers;

export async function loadedRun<T = undefined>(
  stage: Stage, options: Omit<LoadOptions, 'url' | 'duration'>, beside?: Beside<T>,
): Promise<LoadedRun<T>> {
  const { config, portal, bare } = stage;
  const bareCpu = cpuSeconds(bare.pid);
  const bareResult = await load({ url: `${bare.url}/`, connections: options.connections, duration: config.duration, expect: 200 });
  const bareCpuUs = perAnswer(bareCpu, cpuSeconds(bare.pid), bareResult.expected);

  const pid = portal.current.pid;
  await scrapeMetrics(portal.current.url); // resets the event-loop histogram
  const memory = sampleMemory(pid);
  const cpu = cpuSeconds(pid);
  beside?.start();
  const result = await startLoad({ ...options, url: portal.current.url, duration: config.duration }).result;
  const besideResult = await beside?.stop();
  const idle = await waitIdle(pid, portal.current.url, stage.busy, 120_000);
  const metrics = await scrapeMetrics(portal.current.url, 30_000);
  const { portalMb, withChildrenMb, portalAtPeak } = memory.stop();
  return {
    bare: bareResult, portal: result, ratio: result.rps / bareResult.rps, cpuUs: perAnswer(cpu, cpuSeconds(pid), result.expected), bareCpuUs,
    eventLoopP99Ms: metrics?.eventLoopP99Ms ?? null, rssMb: portalMb, rssWithChildrenMb: withChildrenMb, idle, beside: besideResult,
    memory: { atPeak: portalAtPeak, heapUsedMbAfter: metrics?.heapUsedMb ?? null, externalMbAfter: metrics?.externalMb ?? null },
  };
}

/** One line for the log. */
export function describeRun(name: string, run: LoadedRun<unknown>): string {
  const r = run.portal;
  const unexpected = r.unexpected ? `, ${r.unexpected} unexpected ${JSON.stringify(r.statuses)}` : '';
  return `  ${name}: ${(run.ratio * 100).toFixed(2)} % of bare (${r.rps.toFixed(0)}/${run.bare.rps.toFixed(0)} req/s), p50 ${r.p50Ms.toFixed(1)} ms, p99 ${r.p99Ms.toFixed(0)} ms, ` +
    `CPU per answer ${run.cpuUs?.toFixed(0)} µs (bare ${run.bareCpuUs?.toFixed(0)} µs), event loop p99 ${run.eventLoopP99Ms?.toFixed(0)} ms, ` +
    `RSS ${run.rssMb?.toFixed(0)} MB (${makeup(run.memory)}; with children ${run.rssWithChildrenMb?.toFixed(0)} MB)${unexpected}${run.idle ? '' : ', NOT IDLE 2 minutes after'}`;
}

/** What the peak RSS was made of, and the V8 heap and Buffers after the run. */
function makeup({ atPeak, heapUsedMbAfter, externalMbAfter }: LoadedRun<unknown>['memory']): string {
  const mb = (v: number | null | undefined) => (v == null ? '–' : v.toFixed(0));
  return `anonymous ${mb(atPeak?.anonymous)}, files ${mb(atPeak?.file)}; after: heap ${mb(heapUsedMbAfter)}, buffers ${mb(externalMbAfter)}`;
}
