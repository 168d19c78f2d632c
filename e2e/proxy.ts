/**
 * A small HTTP load balancer for the two-instance test (e2e/two-instances.spec.ts): on 127.0.0.1, it
 * hands each request to the next backend in turn (round robin, no stickiness: what a balancer without
 * session affinity does) and notes which backend answered what, so the test can tell that both served.
 * `pin` sends everything to one backend for a while ("sign in through one, work through the other").
 */
import http from 'node:http';

/** One request as the proxy passed it on. */
export interface Served {
  /** Index of the backend in the list the proxy was given. */
  backend: number;
  method: string;
  /** The path without the query string. */
  path: string;
  /** 0 while unanswered, 502 when the backend failed. */
  status: number;
}

export interface RoundRobinProxy {
  url: string;
  /** Every request, in the order they came; `status` is 0 until the answer begins. */
  readonly served: readonly Served[];
  /** Everything to this backend from now on; `undefined`: round robin again. */
  pin(backend: number | undefined): void;
  close(): Promise<void>;
}

// Hop-by-hop headers (RFC 9110 §7.6.1) belong to one connection; Node sets its own on each side.
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-authenticate', 'proxy-authorization', 'proxy-connection', 'te', 'trailer', 'transfer-encoding', 'upgrade']);

function endToEnd(headers: http.IncomingHttpHeaders): http.OutgoingHttpHeaders {
  return Object.fromEntries(Object.entries(headers).filter(([name, value]) => value !== undefined && !HOP_BY_HOP.has(name)));
}

/** Listens on 127.0.0.1:`port` in front of `backends` (their base URLs, http). */
export function startRoundRobinProxy(port: number, backends: string[]): Promise<RoundRobinProxy> {
  const served: Served[] = [];
  const agent = new http.Agent({ keepAlive: true });
  let turn = 0;
  let pinned: number | undefined;

  const server = http.createServer((request, response) => {
    const backend = pinned ?? turn++ % backends.length;
    const target = new URL(backends[backend]);
    const entry: Served = { backend, method: request.method ?? 'GET', path: (request.url ?? '/').split('?')[0], status: 0 };
    served.push(entry);
    // The Host header stays the proxy's, as behind a real balancer: the portals' PUBLIC_URL is this address.
    const upstream = http.request(
      { host: target.hostname, port: target.port, method: request.method, path: request.url, headers: endToEnd(request.headers), agent },
      (answer) => {
        entry.status = answer.statusCode ?? 502;
        response.writeHead(answer.statusCode ?? 502, answer.statusMessage, endToEnd(answer.headers));
        answer.pipe(response);
      },
    );
    upstream.on('error', (error) => {
      entry.status = 502;
      if (!response.headersSent) response.writeHead(502, { 'content-type': 'text/plain' });
      response.end(`backend ${backend} failed: ${error.message}`);
    });
    request.pipe(upstream);
  });

  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${port}`,
        served,
        pin: (backend) => {
          pinned = backend;
        },
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections();
            agent.destroy();
            server.close(() => done());
          }),
      }),
    );
  });
}
