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
import { signToken } from '../support/test-app';
import { factories, type Org, type Person } from '../support/factories';

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

async function emptyDb(): Promise<Db> {
  const db = openDatabase({ sqliteFile: ':memory:' });
  await migrateToLatest(db);
  return db;
}

describe('an external OpenID Connect provider', () => {
  let provider: FastifyInstance;
  let portal: FastifyInstance;
  let providerDb: Db;
  let portalDb: Db;
  let issuer: string;
  /** The portal's members the provider's tokens name: an issuer of a customer, and an operator supervisor. */
  let customer: Org;
  let customerIssuer: Person;
  let supervisor: Person;

  beforeAll(async () => {
    const port = await freePort();
    const providerUrl = `http://127.0.0.1:${port}`;
    issuer = `${providerUrl}/oidc`;
    providerDb = await emptyDb();
    provider = await buildApp({ config: loadConfig({ NODE_ENV: 'test', PORT: String(port), PUBLIC_URL: providerUrl, LOG_LEVEL: 'silent' }), db: providerDb, logger: false });
    await provider.listen({ port, host: '127.0.0.1' });

    portalDb = await emptyDb();
    const make = factories({ db: portalDb });
    customer = await make.organization();
    customerIssuer = await make.member(customer, { role: 'ISSUER' });
    supervisor = await make.member(await make.organization({ role: 'OPERATOR' }), { role: 'SUPERVISOR', scope: 'COOPERATION' });
    portal = await portalWith({});
  });

  /** The portal against the provider, with more settings. */
  async function portalWith(env: Record<string, string>) {
    const config = loadConfig({ NODE_ENV: 'test', PORT: '8080', LOG_LEVEL: 'silent', OIDC_ISSUER: issuer, OIDC_CLIENT_ID: 'customer-portal', OIDC_AUDIENCE: 'customer-portal-api', ...env });
    const app = await buildApp({ config, db: portalDb, logger: false });
    await app.ready();
    return app;
  }

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
    const token = await signToken(providerDb, { email: customerIssuer.email, email_verified: true }, { issuer, audience: 'customer-portal-api' });
    const res = await callback(token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ organization_name: customer.name });
  });

  it('refuses tokens for another audience or from another issuer', async () => {
    const otherAudience = await signToken(providerDb, { email: customerIssuer.email, email_verified: true }, { issuer, audience: 'another-api' });
    expect((await callback(otherAudience)).statusCode).toBe(401);
    // Signed by the portal's own (unused) built-in key: not the provider's, so refused.
    const ownKey = await signToken(portalDb, { email: customerIssuer.email, email_verified: true }, { issuer, audience: 'customer-portal-api' });
    expect((await callback(ownKey)).statusCode).toBe(401);
  });

  it('matches no member by an email the provider has not verified', async () => {
    const token = await signToken(providerDb, { email: supervisor.email, email_verified: false }, { issuer, audience: 'customer-portal-api' });
    const res = await callback(token);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ redirect: 'AccessError', message: expect.stringContaining('not verified') });
  });

  it('reads the verification from the claim OIDC_EMAIL_VERIFIED_CLAIM names, or trusts the emails with OIDC_TRUST_EMAIL', async () => {
    const sign = (claims: Record<string, unknown>) => signToken(providerDb, { email: customerIssuer.email, ...claims }, { issuer, audience: 'customer-portal-api' });
    const call = (app: FastifyInstance, token: string) => app.inject({ method: 'GET', url: '/api/auth/callback', headers: { authorization: `Bearer ${token}` } });
    const renamed = await portalWith({ OIDC_EMAIL_VERIFIED_CLAIM: 'xms_edov' });
    const trusting = await portalWith({ OIDC_TRUST_EMAIL: 'true' });
    try {
      expect((await call(renamed, await sign({ xms_edov: true, email_verified: false }))).statusCode).toBe(200);
      expect((await call(renamed, await sign({ xms_edov: false, email_verified: true }))).statusCode).toBe(403);
      expect((await call(trusting, await sign({}))).statusCode).toBe(200);
      expect((await call(portal, await sign({ email_verified: false }))).statusCode).toBe(403);
    } finally {
      await renamed.close();
      await trusting.close();
    }
  });
});
