/**
 * What answers while the portal starts (server/main.ts): one HTTP server listens at once, and a
 * small Fastify instance answers on it (/healthz alive, /readyz 503 with the reason, everything
 * else 503 with Retry-After) until the portal's app is ready and takes the server over. The hand
 * over swaps the request handler: no port is closed and opened again, no connection is refused.
 * At the end it drains the server (main.ts's shutdown): no new connection, the requests in flight
 * finish within the grace period.
 */
import http from 'node:http';
import Fastify, { type FastifyInstance, type FastifyServerFactory } from 'fastify';
import type { Config } from '../config';
import type { Readiness } from '../startup';
import { loggerOptions } from './logging';
import { registerRequestIdHeader, requestIdOf } from './request-id';
import { RETRY_AFTER_SECONDS } from './error-handler';
import type { ErrorBody } from '../../common/schemas/error';
import { negotiate } from '@fastify/accept-negotiator';
import { startingPage } from './starting-page';

export interface StartingServer {
  /** Answers until the hand over; its logger is the one of the start-up. */
  front: FastifyInstance;
  /** For the portal's app (AppOptions.serverFactory): the same server, not answering yet. */
  serverFactory: FastifyServerFactory;
  /** From now on the portal's app answers every request. */
  handOver(): void;
  /**
   * Stops accepting connections and lets the requests in flight finish, for at most `graceMs`; then
   * closes the connections still open. Answers how many requests were cut off (0: all finished).
   */
  drain(graceMs: number): Promise<number>;
}

export function startingServer(config: Config, readiness: Readiness): StartingServer {
  let handler: http.RequestListener | undefined;
  let appHandler: http.RequestListener | undefined;
  /** Responses not yet sent: a drain waits for them and ends their connections after them. */
  const inFlight = new Set<http.ServerResponse>();
  let draining = false;
  const server = http.createServer((request, response) => {
    inFlight.add(response);
    response.once('close', () => inFlight.delete(response));
    // A request on a kept-alive connection after the drain began is answered, and its connection ends with it.
    if (draining) response.setHeader('connection', 'close');
    handler?.(request, response);
  });
  // Node closes an idle connection after 5 s; clients behind a load balancer (which keeps its own for 60 s) would
  // then meet closed connections and reconnect all the time. Fastify's own default, which this server bypasses.
  server.keepAliveTimeout = 72_000;
  const front = Fastify({
    logger: loggerOptions(config),
    genReqId: requestIdOf(config),
    serverFactory: (frontHandler) => {
      handler = frontHandler;
      return server;
    },
  });
  registerRequestIdHeader(front);
  const notReady = () => ({ status: 'not ready', reason: readiness.reason() });
  front.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store').header('x-content-type-options', 'nosniff');
  });
  front.get('/healthz', async () => ({ status: 'ok' }));
  front.get('/readyz', async (_request, reply) => reply.status(503).header('retry-after', RETRY_AFTER_SECONDS).send(notReady()));
  front.setNotFoundHandler(async (request, reply) => {
    const reason = readiness.reason();
    reply.status(503).header('retry-after', RETRY_AFTER_SECONDS);
    // A browser asks for HTML first and gets a page that says so and reloads; API clients (JSON, */* or no Accept) keep the JSON.
    if (negotiate(request.headers.accept ?? '', ['application/json', 'text/html']) === 'text/html') {
      return reply
        .header('content-type', 'text/html; charset=utf-8')
        .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'")
        .send(startingPage(reason, RETRY_AFTER_SECONDS));
    }
    const body: ErrorBody = { message: `The portal is starting (${reason}). Please try again in a moment.`, severity: 'ERROR' };
    return reply.send(body);
  });
  return {
    front,
    serverFactory: (portalHandler) => {
      appHandler = portalHandler;
      return server;
    },
    handOver() {
      if (!appHandler) throw new Error('the portal app was not built on the starting server');
      handler = appHandler;
    },
    async drain(graceMs) {
      draining = true;
      // Their connections end with these responses rather than wait, idle, for the next request (72 s).
      for (const response of inFlight) if (!response.headersSent) response.setHeader('connection', 'close');
      // No new connection from here; Node closes the idle ones now, and calls back once none is left.
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // A response whose headers had gone out before the drain leaves its connection open and idle after it.
      const sweep = setInterval(() => server.closeIdleConnections(), 100);
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), graceMs)));
      const outcome = await Promise.race([closed, late]);
      clearInterval(sweep);
      clearTimeout(timer);
      if (outcome !== 'late') return 0;
      const cut = inFlight.size;
      server.closeAllConnections();
      await closed;
      return cut;
    },
  };
}
