/**
 * The drain at shutdown (main.ts): no new connection, the requests in flight finish within the grace period and their
 * connections end with them, and what outlasts the grace is cut off and counted.
 */
import { afterEach, describe, expect, it } from 'vitest';
import http from 'node:http';
import net from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { loadConfig } from '../config';
import { Readiness } from '../startup';
import { startingServer } from './starting';

const apps: FastifyInstance[] = [];
afterEach(async () => {
  for (const app of apps.splice(0)) await app.close();
});

/** The start-up's server with an app handed over whose /slow and /stream answer when the test says so. */
async function portal() {
  const starting = startingServer(loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent' }), new Readiness());
  await starting.front.listen({ port: 0, host: '127.0.0.1' });
  const port = (starting.front.server.address() as net.AddressInfo).port;
  const entered: Array<() => void> = [];
  const waiting: Array<() => void> = [];
  const inHandler = () => new Promise<void>((resolve) => entered.push(resolve));
  const hold = () => {
    for (const enter of entered.splice(0)) enter();
    return new Promise<void>((resolve) => waiting.push(resolve));
  };
  const app = Fastify({ serverFactory: starting.serverFactory });
  app.get('/quick', async () => ({ ok: true }));
  app.get('/slow', async () => {
    await hold();
    return { done: 'slow' };
  });
  // Its headers go out before the drain begins: the drain cannot ask for Connection: close on it.
  app.get('/stream', (_request, reply) => {
    reply.raw.writeHead(200, { 'content-type': 'text/plain' });
    reply.raw.write('part one, ');
    void hold().then(() => reply.raw.end('part two'));
  });
  await app.ready();
  starting.handOver();
  apps.push(app, starting.front);
  return { ...starting, port, inHandler, release: () => waiting.splice(0).forEach((done) => done()) };
}

/** A GET on a kept-alive connection; the answer, or the error if the connection was cut. */
function get(port: number, path: string, agent: http.Agent) {
  return new Promise<{ status: number; connection?: string; body: string } | Error>((resolve) => {
    http.get({ host: '127.0.0.1', port, path, agent }, (response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode!, connection: response.headers.connection, body }));
      response.on('error', resolve);
    }).on('error', resolve);
  });
}

const refused = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
  });

describe('draining the server at shutdown', () => {
  it('refuses new connections and lets the requests in flight finish, their connections ending with them', async () => {
    const p = await portal();
    const agent = new http.Agent({ keepAlive: true });
    // A connection left idle by an earlier request does not hold the drain up.
    expect(await get(p.port, '/quick', agent)).toMatchObject({ status: 200 });
    const entered = p.inHandler();
    const slow = get(p.port, '/slow', agent);
    await entered;
    const enteredStream = p.inHandler();
    const stream = get(p.port, '/stream', agent);
    await enteredStream;

    // A grace far longer than this test may take: the drain ends when the last response does, not at the grace.
    const drained = p.drain(600_000);
    expect(await refused(p.port)).toBe(true);
    p.release();
    expect(await slow).toEqual({ status: 200, connection: 'close', body: '{"done":"slow"}' });
    expect(await stream).toMatchObject({ status: 200, body: 'part one, part two' });
    expect(await drained).toBe(0);
    agent.destroy();
  });

  it('cuts off a request that outlasts the grace period, and says how many', async () => {
    const p = await portal();
    const entered = p.inHandler();
    const slow = get(p.port, '/slow', new http.Agent());
    await entered;
    expect(await p.drain(200)).toBe(1);
    expect(await slow).toBeInstanceOf(Error);
    p.release();
  });
});

describe('the answer while the portal starts', () => {
  async function starting() {
    const readiness = new Readiness();
    readiness.set('database', 'migrating');
    const s = startingServer(loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent' }), readiness);
    apps.push(s.front);
    await s.front.ready();
    return s.front;
  }
  const browser = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8';

  it('gives a browser a page that says so and reloads itself', async () => {
    const front = await starting();
    const res = await front.inject({ method: 'GET', url: '/organizations/1/certificates', headers: { accept: browser } });
    expect(res.statusCode).toBe(503);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['retry-after']).toBe('5');
    expect(res.body).toContain('<meta http-equiv="refresh" content="5">');
    expect(res.body).toContain('The portal is starting');
    expect(res.body).toContain('Now: migrating.');
    // Nothing but the page's own inline style may run.
    expect(res.headers['content-security-policy']).toContain("default-src 'none'");
  });

  it('keeps the JSON for API clients: JSON asked for, */* or no Accept', async () => {
    const front = await starting();
    for (const accept of ['application/json', '*/*', undefined]) {
      const res = await front.inject({ method: 'GET', url: '/api/organizations', headers: accept ? { accept } : {} });
      expect(res.statusCode).toBe(503);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.json()).toEqual({ message: 'The portal is starting (migrating). Please try again in a moment.', severity: 'ERROR' });
    }
  });
});
