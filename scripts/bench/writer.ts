/**
 * The writer beside the readers of "reads under writes": an open loop at a fixed rate (a write is
 * started every 1/rate seconds whether or not earlier ones have been answered, as people do not wait
 * for each other), cycling through the kinds of write and over the organizations. Reports the rate it
 * achieved against the one asked, write latencies and every answer that was not 2xx.
 */
import type { Beside } from './loaded';
import type { Organization } from './people';
import { WRITE_KINDS, type WriteOutcome, type Writes } from './writes';

export interface WriterReport {
  askedPerSecond: number;
  /** 2xx writes per second over the time from the first start to the last answer. */
  achievedPerSecond: number;
  started: number;
  ok: number;
  /** Count per status of the answers that were not 2xx (0: connection error or timeout). */
  failures: Record<string, number>;
  /** A few failures' texts, to see why. */
  samples: string[];
  /** Writes not started because 500 were already waiting for an answer. */
  skipped: number;
  p50Ms: number;
  p99Ms: number;
}

const MAX_WAITING = 500;

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

export function summarizeWrites(outcomes: WriteOutcome[]) {
  const failures: Record<string, number> = {};
  const samples: string[] = [];
  for (const o of outcomes.filter((x) => x.status < 200 || x.status > 299)) {
    failures[o.status] = (failures[o.status] ?? 0) + 1;
    if (samples.length < 5) samples.push(`${o.kind} ${o.status}: ${o.error}`);
  }
  const ms = outcomes.map((o) => o.ms);
  return { ok: outcomes.length - Object.values(failures).reduce((a, b) => a + b, 0), failures, samples, p50Ms: percentile(ms, 50), p99Ms: percentile(ms, 99) };
}

/** A writer at `perSecond` writes per second over `organizations`, started and stopped with a loaded run. */
export function openLoopWriter(writes: Writes, organizations: Organization[], perSecond: number): Beside<WriterReport> {
  const outcomes: WriteOutcome[] = [];
  const pending = new Set<Promise<void>>();
  let timer: NodeJS.Timeout | undefined;
  let startedAt = 0;
  let lastAnswer = 0;
  let started = 0;
  let skipped = 0;
  let next = 0;

  /** The next kind in the cycle, in the next organization that has someone for it. */
  const one = async () => {
    const kind = WRITE_KINDS[started % WRITE_KINDS.length];
    for (let tries = 0; tries < 20; tries++) {
      const outcome = await writes.write(kind, organizations[next++ % organizations.length]);
      if (outcome) {
        outcomes.push(outcome);
        lastAnswer = performance.now();
        return;
      }
    }
  };
  const tick = () => {
    // Writes due by now: the timer may fire late on a busy machine, the schedule does not drift.
    const due = Math.floor(((performance.now() - startedAt) / 1000) * perSecond) + 1;
    while (started + skipped < due) {
      if (pending.size >= MAX_WAITING) {
        skipped++;
        continue;
      }
      started++;
      const p = one().finally(() => pending.delete(p));
      pending.add(p);
    }
  };
  return {
    start() {
      startedAt = performance.now();
      tick();
      timer = setInterval(tick, Math.max(5, Math.min(100, 1000 / perSecond / 2)));
    },
    async stop() {
      clearInterval(timer);
      const stoppedAt = performance.now();
      await Promise.all(pending);
      const summary = summarizeWrites(outcomes);
      const seconds = Math.max(stoppedAt, lastAnswer) - startedAt;
      return { askedPerSecond: perSecond, achievedPerSecond: summary.ok / (seconds / 1000), started, skipped, ...summary };
    },
  };
}

/** One line for the log. */
export function describeWriter(w: WriterReport): string {
  const failures = Object.keys(w.failures).length ? `, failures ${JSON.stringify(w.failures)}: ${w.samples.join(' | ')}` : '';
  return `    writer: ${w.achievedPerSecond.toFixed(1)} of ${w.askedPerSecond} writes/s, p50 ${w.p50Ms.toFixed(0)} ms, p99 ${w.p99Ms.toFixed(0)} ms, ` +
    `${w.ok} ok of ${w.started}${failures}${w.skipped ? `, ${w.skipped} skipped` : ''}`;
}
