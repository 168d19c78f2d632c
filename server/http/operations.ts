/**
 * What operators plug into: liveness, readiness and Prometheus metrics (request durations by route
 * and the database pool per app; Node's defaults, among them the event-loop delay
 * `nodejs_eventloop_lag_*`, sign-ins, refusals and export rebuilds per process: server/metrics.ts).
 */
import { timingSafeEqual } from 'node:crypto';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import client from 'prom-client';
import { poolUse } from '../db/database';
import { describeError } from '../startup';
import { processRegistry } from '../metrics';
import { RETRY_AFTER_SECONDS } from './error-handler';

const OPERATIONS = new Set(['/healthz', '/readyz', '/metrics']);

/**
 * A request's route label: the route template for the API, the built-in provider and these
 * endpoints; every file of the web app as one 'static' (each hashed asset is a route of its own);
 * the web app's pages (index.html for any browser path) as 'app'; anything else as 'unmatched'.
 */
function routeLabel(request: FastifyRequest, reply: FastifyReply): string {
  const url = request.routeOptions.url;
  if (url === undefined) return reply.statusCode === 404 ? 'unmatched' : 'app';
  return /^\/(api|oidc)(\/|$)/.test(url) || OPERATIONS.has(url) ? url : 'static';
}

/** A database that does not answer within this is not ready (a connection attempt can hang far longer). */
const READY_TIMEOUT_MS = 2_000;

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms / 1000} s`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Durations of the requests by method, route and status (modules/piston/fast-poll.ts counts the polls it answers). */
    requestDurations: client.Histogram<'method' | 'route' | 'status'>;
    /** Families a module writes itself, for thousands of series (notifications/alert-metrics.ts), as UTF-8. */
    metricsText: Array<() => Promise<Buffer>>;
  }
}

/** Whether the request carries the configured scrape token (constant time), or none is configured. */
function mayScrape(request: FastifyRequest, token: string | undefined): boolean {
  if (!token) return true;
  const given = Buffer.from(request.headers.authorization ?? '');
  const wanted = Buffer.from(`Bearer ${token}`);
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}

const NEWLINE = Buffer.from('\n');

const METRICS_OFF = '/metrics is off: NODE_ENV=production without METRICS_TOKEN (its series name customers by organization id); '
  + 'set METRICS_TOKEN (16+ characters) and scrape with Authorization: Bearer <token>';

export function registerOperations(app: FastifyInstance): void {
  // This app's requests and pool; the process's own metrics are served with them.
  const registry = new client.Registry();
  app.decorate('metricsText', []);
  const duration = new client.Histogram({
    name: 'http_request_duration_seconds',
    help: 'Duration of HTTP requests by route and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });
  app.decorate('requestDurations', duration);
  // Connections of the database pool (PostgreSQL; SQLite has its one connection): in use = total - idle.
  new client.Gauge({
    name: 'db_pool_connections',
    help: 'Database connections by state: total open, in use, idle, and requests waiting for one (SQLite: its one connection, never waiting)',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      const use = poolUse(app.db);
      this.set({ state: 'total' }, use.total);
      this.set({ state: 'idle' }, use.idle);
      this.set({ state: 'in_use' }, use.total - use.idle);
      this.set({ state: 'waiting' }, use.waiting);
    },
  });
  app.addHook('onResponse', async (request, reply) => {
    duration.observe(
      { method: request.method, route: routeLabel(request, reply), status: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
  });

  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));
  // Ready while the database answers. Losing it and its return are logged once each by the database's
  // health (db/health.ts), not at every probe: a load balancer asks every few seconds.
  app.get('/readyz', { schema: { hide: true } }, async (_request, reply) => {
    try {
      await withTimeout(sql`select 1`.execute(app.db), READY_TIMEOUT_MS);
      return { status: 'ready' };
    } catch (error) {
      const reason = `database unreachable: ${describeError(error)}`;
      return reply.status(503).header('retry-after', RETRY_AFTER_SECONDS).send({ status: 'not ready', reason });
    }
  });
  // Per-organization series tell who the customers are: with METRICS_TOKEN set, only its holder scrapes; in
  // production without it nobody does, and the start says how to turn them on (docs/decisions.md "Start-up and metrics").
  const off = app.config.env === 'production' && !app.config.metricsToken;
  if (off) app.log.warn(METRICS_OFF);
  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    if (off) return reply.status(404).send({ status: 'off', reason: METRICS_OFF });
    if (!mayScrape(request, app.config.metricsToken)) {
      return reply.status(401).header('www-authenticate', 'Bearer realm="metrics"').send({ status: 'unauthorized', reason: 'METRICS_TOKEN is set: send it as a bearer token' });
    }
    reply.type(registry.contentType);
    const families: Buffer[] = [Buffer.from(`${await registry.metrics()}\n`)];
    // A family read after a change runs its query and writes thousands of series; on SQLite that holds the event
    // loop (the five reads and their text took 90 ms at the benchmark's scale). Between families other requests
    // get their turn, so no single wait is longer than the largest family.
    for (const text of app.metricsText) {
      families.push(await text(), NEWLINE);
      await nextTurn();
    }
    families.push(Buffer.from(await processRegistry.metrics()));
    // Bytes, not one string: the families are kept encoded (2.8 MB at 5,000 organizations). Sent as one string, the
    // socket encoded it all again at every scrape, 20–35 ms of the event loop at the benchmark's scale.
    return Buffer.concat(families);
  });
}
