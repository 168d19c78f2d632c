/**
 * What operators plug into: liveness, readiness and Prometheus metrics (Node's defaults, among them
 * the event-loop delay `nodejs_eventloop_lag_*`, request durations and the database pool).
 */
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import client from 'prom-client';
import { poolUse } from '../db/database';
import { describeError } from '../startup';

/** A database that does not answer within this is not ready (a connection attempt can hang far longer). */
const READY_TIMEOUT_MS = 2_000;

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms / 1000} s`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

export function registerOperations(app: FastifyInstance): void {
  const registry = new client.Registry();
  client.collectDefaultMetrics({ register: registry });
  const duration = new client.Histogram({
    name: 'http_request_duration_seconds',
    help: 'Duration of HTTP requests by route and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });
  // Connections of the database pool (PostgreSQL; SQLite has its one connection): in use = total - idle.
  new client.Gauge({
    name: 'db_pool_connections',
    help: 'Database connections by state: total open, idle, and requests waiting for one',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      const use = poolUse(app.db);
      this.set({ state: 'total' }, use.total);
      this.set({ state: 'idle' }, use.idle);
      this.set({ state: 'waiting' }, use.waiting);
    },
  });
  app.addHook('onResponse', async (request, reply) => {
    duration.observe(
      { method: request.method, route: request.routeOptions.url ?? 'unmatched', status: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
  });

  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));
  // Ready while the database answers. Losing it is logged once at warn (and its return at info),
  // not at every probe: a load balancer asks every few seconds.
  let unreachable = false;
  app.get('/readyz', { schema: { hide: true } }, async (request, reply) => {
    try {
      await withTimeout(sql`select 1`.execute(app.db), READY_TIMEOUT_MS);
      if (unreachable) request.log.info('database reachable again');
      unreachable = false;
      return { status: 'ready' };
    } catch (error) {
      const reason = `database unreachable: ${describeError(error)}`;
      if (!unreachable) request.log.warn(reason);
      unreachable = true;
      return reply.status(503).header('retry-after', 5).send({ status: 'not ready', reason });
    }
  });
  app.get('/metrics', { schema: { hide: true } }, async (_request, reply) => {
    reply.type(registry.contentType);
    return registry.metrics();
  });
}
