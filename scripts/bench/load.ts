/** One autocannon run (autocannon as a library), summed up as the report needs it. */
import autocannon, { type Instance } from 'autocannon';

export interface LoadOptions {
  url: string;
  headers?: Record<string, string>;
  connections: number;
  /** Seconds. */
  duration: number;
  /** The status every answer should have (200, or 304 for a matching If-None-Match). */
  expect: number;
}

export interface LoadResult {
  /** Answers with the expected status per second. */
  rps: number;
  expected: number;
  /** Answers with another status, connection errors and timeouts (10 s). */
  unexpected: number;
  timeouts: number;
  statuses: Record<string, number>;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  seconds: number;
}

export interface RunningLoad {
  result: Promise<LoadResult>;
  /** Ends the run early (the result covers what was done until then). */
  stop(): void;
}

export function startLoad(options: LoadOptions): RunningLoad {
  let instance: Instance | undefined;
  const result = new Promise<LoadResult>((resolve, reject) => {
    instance = autocannon(
      { url: options.url, headers: options.headers, connections: options.connections, duration: options.duration, timeout: 10, pipelining: 1 },
      (error, r) => {
        if (error) return reject(error);
        const statuses = Object.fromEntries(Object.entries(r.statusCodeStats ?? {}).map(([code, s]) => [code, (s as { count: number }).count]));
        const expected = statuses[String(options.expect)] ?? 0;
        const answered = Object.values(statuses).reduce((a, b) => a + b, 0);
        resolve({
          rps: expected / Math.max(r.duration, 0.001),
          expected,
          unexpected: answered - expected + r.errors,
          timeouts: r.timeouts,
          statuses,
          p50Ms: r.latency.p50,
          p99Ms: r.latency.p99,
          maxMs: r.latency.max,
          seconds: r.duration,
        });
      },
    );
  });
  return { result, stop: () => instance?.stop() };
}

export function load(options: LoadOptions): Promise<LoadResult> {
  return startLoad(options).result;
}
