/**
 * Request ids (issue 31 item 5): a trusted proxy's X-Request-Id, else a UUID that no other
 * instance makes; answered in X-Request-Id and in every log line of the request. The id does not
 * depend on the engine: SQLite serves.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { buildApp } from '../app';
import { loadConfig } from '../config';
import { createTestDatabase, type TestDatabase } from '../../test/support/databases';
import { signToken } from '../../test/support/tokens';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const ENV = { NODE_ENV: 'test', PORT: '8080', PUBLIC_URL: 'http://localhost:8080', LOG_LEVEL: 'info' };

interface Instance {
  app: FastifyInstance;
  lines: Array<Record<string, unknown>>;
}

let database: TestDatabase;
const instances: Instance[] = [];

async function instance(env: Record<string, string> = {}): Promise<Instance> {
  const lines: Array<Record<string, unknown>> = [];
  const app = await buildApp({ config: loadConfig({ ...ENV, ...env }), db: database.db, logStream: { write: (line) => lines.push(JSON.parse(line)) } });
  await app.ready();
  const made = { app, lines };
  instances.push(made);
  return made;
}

/** Sends a request and answers its X-Request-Id and the log lines that name a request (every line but the app's own). */
async function send(at: Instance, options: InjectOptions) {
  const from = at.lines.length;
  const res = await at.app.inject(options);
  const id = res.headers['x-request-id'];
  const lines = at.lines.slice(from).filter((l) => 'req' in l || 'res' in l || 'reqId' in l);
  return { res, id, lines };
}

beforeAll(async () => {
  database = await createTestDatabase('sqlite');
});

afterAll(async () => {
  for (const { app } of instances) await app.close();
  await database?.drop();
});

describe('request ids', () => {
  it('are UUIDs no other instance makes, answered in X-Request-Id and in every log line of the request', async () => {
    const [a, b] = [await instance(), await instance()];
    const token = await signToken(database.db, { email: 'nobody@unknown.example', email_verified: true });
    const ids = new Set<string>();
    for (const at of [a, b, a, b]) {
      // A refused token logs a line of its own besides the request's.
      const { res, id, lines } = await send(at, { url: '/api/organizations', headers: { authorization: `Bearer ${token}x`, 'x-request-id': 'chosen-by-the-client' } });
      expect(res.statusCode).toBe(401);
      expect(id).toMatch(UUID);
      ids.add(String(id));
      expect(lines.map((l) => l.msg)).toEqual(['bearer token refused', 'request completed']);
      for (const line of lines) expect(line.reqId, JSON.stringify(line)).toBe(id);
    }
    // Not req-1 in each process: four requests at two instances, four ids.
    expect(ids.size).toBe(4);
  });

  it("takes a trusted proxy's X-Request-Id, and only a trusted proxy's", async () => {
    const behindProxy = await instance({ TRUST_PROXY: '10.0.0.2' });
    const proxied = await send(behindProxy, { url: '/api/config', remoteAddress: '10.0.0.2', headers: { 'x-request-id': 'lb-7f3a9c' } });
    expect(proxied.id).toBe('lb-7f3a9c');
    expect(proxied.lines.map((l) => l.reqId)).toEqual(['lb-7f3a9c']);
    // The same header from anyone else, or a value no proxy makes (too long, spaces): a UUID of ours.
    expect((await send(behindProxy, { url: '/api/config', remoteAddress: '203.0.113.9', headers: { 'x-request-id': 'lb-7f3a9c' } })).id).toMatch(UUID);
    expect((await send(behindProxy, { url: '/api/config', remoteAddress: '10.0.0.2', headers: { 'x-request-id': 'x'.repeat(129) } })).id).toMatch(UUID);
    expect((await send(behindProxy, { url: '/api/config', remoteAddress: '10.0.0.2', headers: { 'x-request-id': 'two words' } })).id).toMatch(UUID);
    // A hop count trusts the nearest hop, whoever it is.
    const hops = await instance({ TRUST_PROXY: '1' });
    expect((await send(hops, { url: '/api/config', remoteAddress: '198.51.100.4', headers: { 'x-request-id': 'edge-1' } })).id).toBe('edge-1');
  });

  it('is answered on every way out: errors, refusals before routing, the web app and the built-in provider', async () => {
    const at = await instance();
    for (const url of ['/api/organizations', '/api/organizations/%zz', '/api/nothing-here', '/healthz', '/oidc/.well-known/openid-configuration', '/certificates']) {
      const { res, id, lines } = await send(at, { url });
      expect(String(id), `${url} → ${res.statusCode}`).toMatch(UUID);
      for (const line of lines) expect(line.reqId, `${url}: ${JSON.stringify(line)}`).toBe(id);
    }
  });
});
