/**
 * A gateway's unchanged poll is answered before Fastify (fast-poll.ts), on the server main.ts listens
 * on: the same 304 the route gives, counted in the metrics; and only that: a change, another caller,
 * an expired or foreign token still go through Fastify and its checks.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeJwt } from 'jose';
import { testDialects } from '../../../test/support/databases';
import { useTestApp } from '../../../test/support/test-app';
import { TEST_CONFIG } from '../../../test/support/tokens';
import { factories, type Cooperation } from '../../../test/support/factories';
import { buildApp } from '../../app';
import { signApiToken } from '../tokens/api-tokens';
import { withFastPoll } from './fast-poll';
import { requestIdOf } from '../../http/request-id';

const dialects = await testDialects();

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** What a 304 says besides the transport's own headers (Date, Connection, Keep-Alive) and its request's own id (a UUID). */
function answerOf(response: { status: number; headers: Record<string, string | string[] | undefined> }) {
  const { date: _date, connection: _connection, 'keep-alive': _keepAlive, 'x-request-id': id, ...headers } = response.headers;
  expect(id).toMatch(UUID);
  return { status: response.status, headers };
}

describe.each(dialects)('the unchanged poll answered before Fastify on %s', (dialect) => {
  const t = useTestApp(dialect, { demo: false });
  const make = factories(t);
  let served: FastifyInstance;
  let server: http.Server;
  let base: string;
  let w: Cooperation;
  let token: string;
  /** Requests Fastify itself handled. */
  let handled = 0;

  const poll = async (path: string, headers: Record<string, string>) => {
    const response = await fetch(`${base}${path}`, { headers });
    const body = Buffer.from(await response.arrayBuffer());
    return { status: response.status, headers: Object.fromEntries(response.headers), body };
  };
  const counted = async (path: string) => {
    const metrics = await (await fetch(`${base}/metrics`)).text();
    const line = metrics.split('\n').find((l) => l.startsWith(`http_request_duration_seconds_count{method="GET",route="${path}",status="304"}`));
    return Number(line?.split(' ').pop() ?? 0);
  };

  /** PostgreSQL: for 2 s after a write through this database the export epoch is read, not taken from LISTEN (db/export-epoch.ts). */
  const afterWriteWindow = () => new Promise((resolve) => setTimeout(resolve, dialect === 'postgres' ? 2_100 : 0));

  beforeAll(async () => {
    // Fastify's request handler with the fast path before it, as main.ts's server has it (app.ts), counting what reaches Fastify.
    served = await buildApp({ config: TEST_CONFIG, db: t.db, now: t.clock.now, logger: false });
    await served.ready();
    server = http.createServer(withFastPoll((request, response) => {
      handled++;
      served.routing(request, response);
    }, () => served, requestIdOf(TEST_CONFIG)));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    w = await make.cooperation();
    const secret = await served.inject({ method: 'POST', url: '/api/admin/mastersecret', payload: 'a master secret for the tests', headers: { ...(await t.as(w.devops.email)), 'content-type': 'text/plain' } });
    expect(secret.statusCode).toBe(200);
    token = (await signApiToken(served, { upn: 'gateway', groups: ['piston_export'], expiresInDays: 1 })).token;
  });
  afterAll(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
    await served?.close();
  });

  it.each(['/api/piston/certs', '/api/piston/routes.hcl'])('answers %s 304 with the headers of the route, without Fastify, and counts it', async (path) => {
    await make.certificate(w.customer, 'approved');
    const gateway = { authorization: `Bearer ${token}` };
    const first = await poll(path, gateway);
    expect(first.status).toBe(200);
    const etag = first.headers.etag;
    await afterWriteWindow();
    const before = { counted: await counted(path), handled };
    const unchanged = await poll(path, { ...gateway, 'if-none-match': etag });
    expect(unchanged.status).toBe(304);
    expect(unchanged.body.length).toBe(0);
    expect(handled).toBe(before.handled);
    expect(await counted(path)).toBe(before.counted + 1);
    // Fastify's own answer to the same poll (inject never takes the fast path): the same status and headers.
    const routed = await served.inject({ method: 'GET', url: path, headers: { ...gateway, 'if-none-match': etag } });
    expect(answerOf(unchanged)).toEqual(answerOf({ status: routed.statusCode, headers: routed.headers as Record<string, string> }));
    expect(unchanged.headers).toMatchObject({ etag, 'cache-control': 'no-cache' });
    expect(unchanged.headers['content-security-policy']).toBeUndefined();
  });

  it('serves a change at the next poll, and leaves other callers and tokens to Fastify', async () => {
    const gateway = { authorization: `Bearer ${token}` };
    const { headers: { etag } } = await poll('/api/piston/certs', gateway);
    await afterWriteWindow();
    let seen = handled;
    expect((await poll('/api/piston/certs', { ...gateway, 'if-none-match': etag })).status).toBe(304);
    expect(handled).toBe(seen);

    // A new trusted certificate: the old ETag gets the new archive at once.
    await make.certificate(w.customer, 'approved');
    const changed = await poll('/api/piston/certs', { ...gateway, 'if-none-match': etag });
    expect(changed.status).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
    const current = changed.headers.etag;

    // A person (the operator's DevOps) goes through sign-in as ever, and gets the same 304.
    await afterWriteWindow();
    seen = handled;
    expect((await poll('/api/piston/certs', { ...(await t.as(w.devops.email)), 'if-none-match': current })).status).toBe(304);
    expect(handled).toBe(seen + 1);
    // A person without the right is refused, ETag or not.
    expect((await poll('/api/piston/certs', { ...(await t.as(w.member.email)), 'if-none-match': current })).status).toBe(403);

    // An API token of another group, or none: refused by Fastify's checks.
    const other = (await signApiToken(served, { upn: 'someone', groups: ['other'], expiresInDays: 1 })).token;
    expect((await poll('/api/piston/certs', { authorization: `Bearer ${other}`, 'if-none-match': current })).status).toBe(401);
    expect((await poll('/api/piston/certs', { 'if-none-match': current })).status).toBe(401);

    // The kept token, from its expiry on: 401, not a 304.
    expect((await poll('/api/piston/certs', { ...gateway, 'if-none-match': current })).status).toBe(304);
    seen = handled;
    t.clock.set(new Date(Number(decodeJwt(token).exp) * 1000));
    expect((await poll('/api/piston/certs', { ...gateway, 'if-none-match': current })).status).toBe(401);
    expect(handled).toBe(seen + 1);
  });
});
