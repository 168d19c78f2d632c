/**
 * The verdict: per target the median over the rounds of the throughput ratio, p50 and p99 (and of
 * the single-client p99), the worst event-loop delay p99 and RSS of any round, each against its
 * limit; a Markdown table for the console and docs/performance.md, and everything as JSON.
 */
import { CPU_NOISE, LIMITS, pick, type Engine } from './targets';
import type { RebuildResult, TargetRun } from './runner';
import type { LoadResult } from './load';

interface Row {
  id: string;
  label: string;
  path: string;
  probe?: TargetRun['probe'];
  rounds: number;
  ratio: number | null;
  rps: number | null;
  bareRps: number | null;
  p50Ms: number | null;
  p99Ms: number | null;
  /** Many requests were still unanswered when a run ended: the percentiles are lower bounds. */
  p50LowerBound: boolean;
  p99LowerBound: boolean;
  singleP99Ms: number | null;
  eventLoopP99Ms: number | null;
  rssPeakMb: number | null;
  rssWithChildrenMb: number | null;
  /** Median CPU µs per answer of the portal and of bare Fastify: information, no target (it moves little with load). */
  cpuUs: number | null;
  bareCpuUs: number | null;
  unexpected: number;
  limits: {
    ratio?: number; p99Ms?: number; singleP99Ms?: number; eventLoopP99Ms: number; rssMb: number; rssWithChildrenMb: number;
    /** At most this CPU per answer: another target's, plus the noise. */
    cpuUs?: number;
  };
  failures: string[];
  pass: boolean;
  aborted?: string;
}

const median = (values: number[]) => {
  if (values.length === 0) return null;
  const s = [...values].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const max = (values: (number | null)[]) => {
  const known = values.filter((v): v is number => v != null);
  return known.length ? Math.max(...known) : null;
};

const known = (values: (number | null | undefined)[]) => values.filter((v): v is number => v != null);

const unfinishedShare = (r: LoadResult) => r.unfinished / Math.max(1, r.expected + r.unexpected + r.unfinished);

function summarize(run: TargetRun, engine: Engine): Row {
  const { target, rounds } = run;
  const limits = {
    ratio: pick(target.ratio, engine), p99Ms: pick(target.p99Ms, engine), singleP99Ms: pick(target.singleP99Ms, engine),
    eventLoopP99Ms: LIMITS.eventLoopP99Ms, rssMb: LIMITS.rssMb, rssWithChildrenMb: LIMITS.rssWithChildrenMb,
  };
  const singles = rounds.map((r) => r.single).filter((s) => s != null);
  const row: Row = {
    id: target.id, label: target.label, path: target.path, probe: run.probe, rounds: rounds.length,
    ratio: median(rounds.map((r) => r.ratio)), rps: median(rounds.map((r) => r.portal.rps)), bareRps: median(rounds.map((r) => r.bare.rps)),
    p50Ms: median(rounds.map((r) => r.portal.p50Ms)), p99Ms: median(rounds.map((r) => r.portal.p99Ms)),
    singleP99Ms: median(singles.map((s) => s.p99Ms)),
    p50LowerBound: rounds.some((r) => unfinishedShare(r.portal) > 0.5),
    p99LowerBound: rounds.some((r) => unfinishedShare(r.portal) > 0.01),
    eventLoopP99Ms: max(rounds.map((r) => r.eventLoopP99Ms)), rssPeakMb: max(rounds.map((r) => r.rssPeakMb)),
    rssWithChildrenMb: max(rounds.map((r) => r.rssWithChildrenMb ?? null)),
    cpuUs: median(known(rounds.map((r) => r.cpuUs?.portal))), bareCpuUs: median(known(rounds.map((r) => r.cpuUs?.bare))),
    unexpected: rounds.reduce((n, r) => n + r.portal.unexpected + (r.single?.unexpected ?? 0), 0),
    limits, failures: [], pass: false, aborted: run.aborted,
  };
  const f = row.failures;
  if (run.aborted) f.push(`aborted (${run.aborted})`);
  if (row.unexpected) f.push(`${row.unexpected} errors/timeouts`);
  if (limits.ratio != null && !(row.ratio != null && row.ratio >= limits.ratio)) f.push('throughput');
  if (limits.p99Ms != null && !(row.p99Ms != null && row.p99Ms <= limits.p99Ms)) f.push('p99');
  if (limits.singleP99Ms != null && !(row.singleP99Ms != null && row.singleP99Ms <= limits.singleP99Ms)) f.push('1-client p99');
  if (rounds.length && !(row.eventLoopP99Ms != null && row.eventLoopP99Ms <= limits.eventLoopP99Ms)) f.push('event loop');
  if (rounds.length && !(row.rssPeakMb != null && row.rssPeakMb <= limits.rssMb)) f.push('RSS');
  if (rounds.length && !(row.rssWithChildrenMb != null && row.rssWithChildrenMb <= limits.rssWithChildrenMb)) f.push('RSS with children');
  row.pass = f.length === 0;
  return row;
}

function ms(v: number | null): string {
  if (v == null) return '–';
  return v < 10 ? `${v.toFixed(1)} ms` : `${Math.round(v).toLocaleString('en')} ms`;
}
function percent(v: number | null): string {
  if (v == null) return '–';
  const p = v * 100;
  return `${p < 1 ? p.toFixed(2) : p < 10 ? p.toFixed(1) : p.toFixed(0)} %`;
}
const within = (value: string, limit: string | undefined) => (limit ? `${value} (${limit})` : value);

export interface Extra {
  coldStartMs: number[];
  rebuild: RebuildResult;
}

export interface Verdict {
  rows: Row[];
  coldStart: { runsMs: number[]; medianMs: number | null; pass: boolean };
  rebuild: RebuildResult & { medianMs: number | null; eventLoopP99Ms: (number | null)[]; pass: boolean };
  passed: number;
  failed: number;
}

/** A target that must cost no more than another: its CPU per answer against the other's, measured in the same rounds. */
function compareCost(row: Row, run: TargetRun, rows: Row[]): void {
  const reference = rows.find((r) => r.id === run.target.costsNoMoreThan);
  if (!run.target.costsNoMoreThan) return;
  if (reference?.cpuUs == null) {
    row.failures.push(`no CPU per answer of ${run.target.costsNoMoreThan} to compare with`);
  } else {
    row.limits.cpuUs = reference.cpuUs * (1 + CPU_NOISE);
    if (!(row.cpuUs != null && row.cpuUs <= row.limits.cpuUs)) row.failures.push(`CPU per answer above ${reference.id}'s`);
  }
  row.pass = row.failures.length === 0;
}

export function judge(runs: TargetRun[], engine: Engine, extra: Extra): Verdict {
  const rows = runs.map((r) => summarize(r, engine));
  rows.forEach((row, i) => compareCost(row, runs[i], rows));
  const coldMedian = median(extra.coldStartMs);
  const coldStart = { runsMs: extra.coldStartMs, medianMs: coldMedian, pass: coldMedian != null && coldMedian <= LIMITS.coldStartMs };
  const rebuildMedian = median(extra.rebuild.runsMs);
  const rebuildLoop = max(extra.rebuild.eventLoopP99Ms);
  const rebuild = {
    ...extra.rebuild, medianMs: rebuildMedian,
    pass: !extra.rebuild.error && rebuildMedian != null && rebuildMedian <= LIMITS.rebuildMs && rebuildLoop != null && rebuildLoop <= LIMITS.eventLoopP99Ms,
  };
  const verdicts = [...rows.map((r) => r.pass), coldStart.pass, rebuild.pass];
  const passed = verdicts.filter(Boolean).length;
  return { rows, coldStart, rebuild, passed, failed: verdicts.length - passed };
}

export function table(verdict: Verdict): string {
  const lines = [
    '| request | throughput vs bare Fastify | p50 / p99 at 50 connections | 1 client p99 | event loop p99 | RSS peak (with children) | CPU per answer (bare) | result |',
    '| --- | --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const r of verdict.rows) {
    const { limits } = r;
    lines.push(
      `| ${r.label} | ${within(percent(r.ratio), limits.ratio != null ? `≥ ${percent(limits.ratio)}` : undefined)} ` +
        `| ${within(`${r.p50LowerBound ? '≥ ' : ''}${ms(r.p50Ms)} / ${r.p99LowerBound ? '≥ ' : ''}${ms(r.p99Ms)}`, limits.p99Ms != null ? `≤ ${limits.p99Ms} ms` : undefined)} ` +
        `| ${r.singleP99Ms == null && limits.singleP99Ms == null ? '' : within(ms(r.singleP99Ms), limits.singleP99Ms != null ? `≤ ${limits.singleP99Ms} ms` : undefined)} ` +
        `| ${ms(r.eventLoopP99Ms)} | ${r.rssPeakMb == null ? '–' : `${Math.round(r.rssPeakMb)} MB`} (${r.rssWithChildrenMb == null ? '–' : `${Math.round(r.rssWithChildrenMb)} MB`}) ` +
        `| ${r.cpuUs == null ? '–' : `${Math.round(r.cpuUs)} µs (${r.bareCpuUs == null ? '–' : Math.round(r.bareCpuUs)} µs)`}${limits.cpuUs == null ? '' : ` (≤ ${Math.round(limits.cpuUs)} µs)`} ` +
        `| ${r.pass ? 'PASS' : `**FAIL**: ${r.failures.join(', ')}`} |`,
    );
  }
  const c = verdict.coldStart;
  lines.push(`| cold start with the existing database (median of ${c.runsMs.length}) | | ${within(ms(c.medianMs), `≤ ${LIMITS.coldStartMs.toLocaleString('en')} ms`)} | | | | | ${c.pass ? 'PASS' : '**FAIL**'} |`);
  const b = verdict.rebuild;
  lines.push(
    `| certs archive rebuilt after a change (one GET after an approval, median of ${b.runsMs.length}) | ` +
      `| ${within(ms(b.medianMs), `≤ ${LIMITS.rebuildMs.toLocaleString('en')} ms`)} | | ${ms(max(b.eventLoopP99Ms))} | | ` +
      `| ${b.pass ? 'PASS' : `**FAIL**${b.error ? `: ${b.error}` : ''}`} |`,
  );
  return lines.join('\n');
}
