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
  /**
   * Latency percentiles over every request sent: answered ones, timeouts (10 s) and those still
   * unanswered when the run ended (counted with their wait so far, a lower bound). Leaving the
   * unanswered ones out would report the few fast answers of a saturated server.
   */
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** Requests still unanswered at the end: where there are many, the percentiles are lower bounds. */
  unfinished: number;
  /** Connections that got no answer at all during the run. */
  starved: number;
  seconds: number;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/**
 * autocannon 9 keeps the body of every answer as a string (`body += chunk`, lib/pipelinedRequestsQueue.js) for
 * options this bench does not use (expectBody, verifyBody); the probe checks each target's body once instead
 * (runner.ts). Decoding a gzipped page as UTF-8 text cost the client about 40 µs per answer (a 5.7 kB body:
 * 93 → 51 µs of the client's CPU without it, a 17-byte one unchanged), on the two cores the portal shares with
 * it: the client's waste was charged to the portal. Its byte count stays (addByteCount).
 */
function keepNoBodies(client: NodeJS.EventEmitter): void {
  const queue = (client as unknown as { pipelinedRequests?: { addBody?: unknown } }).pipelinedRequests;
  if (typeof queue?.addBody !== 'function') throw new Error('autocannon changed: its client has no pipelinedRequests.addBody to leave out (scripts/bench/load.ts)');
  queue.addBody = () => {};
}

export interface RunningLoad {
  result: Promise<LoadResult>;
  /** Ends the run early (the result covers what was done until then). */
  stop(): void;
}

export function startLoad(options: LoadOptions): RunningLoad {
  let instance: Instance | undefined;
  const latencies: number[] = [];
  const sentAt = new Map<object, number>();
  const answeredBy = new Map<object, number>();
  const setupClient = (client: NodeJS.EventEmitter) => {
    keepNoBodies(client);
    answeredBy.set(client, 0);
    client.on('request', () => sentAt.set(client, performance.now()));
    client.on('response', (_status: number, _bytes: number, ms: number) => {
      answeredBy.set(client, answeredBy.get(client)! + 1);
      latencies.push(ms);
      sentAt.delete(client);
    });
    client.on('timeout', () => {
      latencies.push(10_000);
      sentAt.delete(client);
    });
  };
  const result = new Promise<LoadResult>((resolve, reject) => {
    instance = autocannon(
      { url: options.url, headers: options.headers, connections: options.connections, duration: options.duration, timeout: 10, pipelining: 1, setupClient },
      (error, r) => {
        if (error) return reject(error);
        const end = performance.now();
        const unfinished = sentAt.size;
        for (const started of sentAt.values()) latencies.push(end - started);
        const sorted = latencies.sort((a, b) => a - b);
        const statuses = Object.fromEntries(Object.entries(r.statusCodeStats ?? {}).map(([code, s]) => [code, (s as { count: number }).count]));
        const expected = statuses[String(options.expect)] ?? 0;
        const answered = Object.values(statuses).reduce((a, b) => a + b, 0);
        resolve({
          rps: expected / Math.max(r.duration, 0.001),
          expected,
          unexpected: answered - expected + r.errors,
          timeouts: r.timeouts,
          statuses,
          p50Ms: percentile(sorted, 50),
          p99Ms: percentile(sorted, 99),
          maxMs: sorted.at(-1) ?? 0,
          unfinished,
          starved: [...answeredBy.values()].filter((n) => n === 0).length,
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
