/** One autocannon run (autocannon as a library), summed up as the report needs it. */
import autocannon, { type Instance } from 'autocannon';

/** One request of a rotating load: its path (with query), method, headers and body. */
export interface PlannedRequest {
  path: string;
  method?: 'GET' | 'POST' | 'PUT';
  headers: Record<string, string>;
  body?: string;
}

/**
 * Where one connection takes its requests from when they differ request by request (real use: many
 * people, many URLs; a gateway that sends the ETag of its own last answer). `answered` sees each
 * answer's status and headers before the connection's next request is built.
 */
export interface RequestSource {
  next(): PlannedRequest;
  answered?(status: number, headers: Record<string, string>): void;
}

export interface LoadOptions {
  /** The server (and, without `source`, the one URL every request asks). */
  url: string;
  headers?: Record<string, string>;
  /** Called once per connection: its own source of requests. */
  source?: (connection: number) => RequestSource;
  connections: number;
  /** Seconds. */
  duration: number;
  /** The statuses an answer should have (200, or 304 for a matching If-None-Match). */
  expect: number | number[];
}

export interface LoadResult {
  /** Answers with an expected status per second. */
  rps: number;
  expected: number;
  /** Bytes received (headers and bodies). */
  bytes: number;
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

/** Raw header list (name, value, name, value…) as llhttp gives it, as an object with lower-case names. */
function headerObject(raw: unknown): Record<string, string> {
  const list = Array.isArray(raw) ? (raw as string[]) : [];
  const headers: Record<string, string> = {};
  for (let i = 0; i + 1 < list.length; i += 2) headers[String(list[i]).toLowerCase()] = String(list[i + 1]);
  return headers;
}

/** Makes one autocannon client take each request from `source`, and tell it every answer. */
function useSource(client: NodeJS.EventEmitter, source: RequestSource): void {
  const c = client as unknown as { setRequests(requests: object[]): void };
  c.setRequests([{ setupRequest: (request: object) => ({ ...request, method: 'GET', ...source.next() }) }]);
  if (!source.answered) return;
  let headers: Record<string, string> = {};
  client.on('headers', (info: { headers?: unknown }) => (headers = headerObject(info.headers)));
  client.on('response', (status: number) => source.answered!(status, headers));
}

export function startLoad(options: LoadOptions): RunningLoad {
  let instance: Instance | undefined;
  let connection = 0;
  const latencies: number[] = [];
  const sentAt = new Map<object, number>();
  const answeredBy = new Map<object, number>();
  const setupClient = (client: NodeJS.EventEmitter) => {
    keepNoBodies(client);
    if (options.source) useSource(client, options.source(connection++));
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
        const expected = [options.expect].flat().reduce((n, status) => n + (statuses[String(status)] ?? 0), 0);
        const answered = Object.values(statuses).reduce((a, b) => a + b, 0);
        resolve({
          rps: expected / Math.max(r.duration, 0.001),
          expected,
          bytes: r.throughput?.total ?? 0,
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
