import Fastify from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { keepingValidatorCompiler, parseQuerystring } from './validation-cache';

/** A route as the portal's lists declare theirs, with the parser and compiler app.ts sets. */
async function listApp() {
  const app = Fastify({ routerOptions: { querystringParser: parseQuerystring } }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(keepingValidatorCompiler);
  const seen: object[] = [];
  const querystring = z.object({
    offset: z.coerce.number().int().min(0).default(0),
    status: z.string().optional().transform((s) => (s ? s.split(',') : [])),
  });
  app.get('/list', { schema: { querystring } }, async (request) => {
    seen.push(request.query);
    let changed = true;
    try {
      (request.query as { offset: number }).offset = 99;
      request.query.status.push('injected');
    } catch {
      changed = false;
    }
    return { ...request.query, changed };
  });
  const params = z.object({ id: z.uuid(), dn: z.string().max(20) });
  app.get('/organizations/:id/certificates/:dn', { schema: { params } }, async (request) => {
    return request.params;
  });
  await app.ready();
  return { app, seen };
}

describe('query strings kept per text', () => {
  const made = listApp();
  afterAll(async () => (await made).app.close());

  it('answers the same text with the same validated query, which no route can change for the next request', async () => {
    const { app, seen } = await made;
    const first = await app.inject('/list?offset=100&status=approved,expired');
    const second = await app.inject('/list?offset=100&status=approved,expired');
    expect(first.json()).toEqual({ offset: 100, status: ['approved', 'expired'], changed: false });
    expect(second.json()).toEqual(first.json());
    expect(seen.at(-1)).toBe(seen.at(-2));
    expect(Object.isFrozen(seen.at(-1))).toBe(true);
  });

  it('refuses a bad query every time, also after the same route answered a good one', async () => {
    const { app } = await made;
    expect((await app.inject('/list?offset=5')).statusCode).toBe(200);
    for (let i = 0; i < 2; i++) {
      const refused = await app.inject('/list?offset=-1');
      expect(refused.statusCode).toBe(400);
      expect(refused.json().message).toMatch(/offset/);
    }
    expect((await app.inject('/list?offset=5')).json()).toMatchObject({ offset: 5 });
  });

  it('validates path parameters on every request', async () => {
    const { app } = await made;
    const id = '5f0c7a8e-1b2c-4d3e-8f9a-0b1c2d3e4f50';
    expect((await app.inject(`/organizations/${id}/certificates/CN%3Da`)).json()).toEqual({ id, dn: 'CN=a' });
    for (let i = 0; i < 2; i++) expect((await app.inject('/organizations/not-an-id/certificates/CN%3Da')).statusCode).toBe(400);
    expect((await app.inject(`/organizations/${id}/certificates/${'x'.repeat(21)}`)).statusCode).toBe(400);
  });

  it('parses as Fastify does (repeated keys, encoded characters, no query at all) and stays correct past its bound', async () => {
    expect(parseQuerystring('a=1&a=2&b=%C3%A4+x')).toEqual({ a: ['1', '2'], b: 'ä x' });
    expect(parseQuerystring('')).toEqual({});
    const { app } = await made;
    for (let offset = 0; offset < 1_100; offset += 1) parseQuerystring(`offset=${offset}`);
    expect((await app.inject('/list?offset=7')).json()).toMatchObject({ offset: 7 });
    expect((await app.inject('/list')).json()).toMatchObject({ offset: 0, status: [] });
  });
});
