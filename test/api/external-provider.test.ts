/**
 * The same build with an external OpenID Connect provider: a second portal is configured with
 * OIDC_ISSUER pointing at the first one's built-in provider over HTTP, so discovery, the remote
 * JWKS and strict verification run as they would against Keycloak or Entra ID.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import net from 'node:net';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../server/app';
import { loadConfig } from '../../server/config';
import { openDatabase, type Db } from '../../server/db/database';
import { migrateToLatest } from '../../server/db/migrate';
import { seedDemoData } from '../../scripts/seed-data';
import { signToken } from '../support/test-app';

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

async function seededDb(): Promise<Db> {
  const db = openDatabase({ sqliteFile: ':memory:' });
  await migrateToLatest(db);
  await seedDemoData(db, new Date());
  return db;
}

describe('an external OpenID Connect provider', () => {
  let provider: FastifyInstance;
  let portal: FastifyInstance;
  let providerDb: Db;
  let portalDb: Db;
  let issuer: string;

  beforeAll(async () => {
    const port = await freePort();
    const providerUrl = `http://127.0.0.1:${port}`;
    issuer = `${providerUrl}/oidc`;
    providerDb = await seededDb();
    provider = await buildApp({ config: loadConfig({ NODE_ENV: 'test', PORT: String(port), PUBLIC_URL: providerUrl, LOG_LEVEL: 'silent' }), db: providerDb, logger: false });
    await provider.listen({ port, host: '127.0.0.1' });

    portalDb = await seededDb();
    const config = loadConfig({ NODE_ENV: 'test', PORT: '8080', LOG_LEVEL: 'silent', OIDC_ISSUER: issuer, OIDC_CLIENT_ID: 'customer-portal', OIDC_AUDIENCE: 'customer-portal-api' });
    portal = await buildApp({ config, db: portalDb, logger: false });
    await portal.ready();
  });

  afterAll(async () => {
    await portal?.close();
    await provider?.close();
    await portalDb?.destroy();
    await providerDb?.destroy();
  });

  const callback = (token: string) => portal.inject({ method: 'GET', url: '/api/auth/callback', headers: { authorization: `Bearer ${token}` } });

  it('turns the built-in provider off and tells the web app where to sign in', async () => {
    expect((await portal.inject('/oidc/.well-known/openid-configuration')).statusCode).toBe(404);
    expect((await portal.inject('/api/config')).json()).toMatchObject({ authority: issuer, client_id: 'customer-portal' });
  });

  it("accepts the provider's tokens, verified with the keys from its discovery document", async () => {
    const token = await signToken(providerDb, { email: 'issuer@contoso.example', email_verified: true }, { issuer, audience: 'customer-portal-api' });
    const res = await callback(token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ organization_name: 'Contoso' });
  });

  it('refuses tokens for another audience or from another issuer', async () => {
    const otherAudience = await signToken(providerDb, { email: 'issuer@contoso.example', email_verified: true }, { issuer, audience: 'another-api' });
    expect((await callback(otherAudience)).statusCode).toBe(401);
    // Signed by the portal's own (unused) built-in key: not the provider's, so refused.
    const ownKey = await signToken(portalDb, { email: 'issuer@contoso.example', email_verified: true }, { issuer, audience: 'customer-portal-api' });
    expect((await callback(ownKey)).statusCode).toBe(401);
  });
});
