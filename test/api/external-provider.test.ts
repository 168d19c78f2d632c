/**
 * The same build with an external OpenID Connect provider: a second portal is configured with
 * OIDC_ISSUER pointing at the first one's built-in provider over HTTP, so discovery, the remote
 * JWKS and strict verification run as they would against Keycloak or Entra ID.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../server/app';
import { loadConfig } from '../../server/config';
import { openDatabase, type Db } from '../../server/db/database';
import { migrateToLatest } from '../../server/db/migrate';
import { decodeJwt } from 'jose';
import { signToken } from '../support/tokens';
import { factories, type Org, type Person } from '../support/factories';
import { createTestDatabase, testDialects, type TestDatabase } from '../support/databases';
import { freePort, waitFor } from '../support/processes';
import { startSecondProvider, type SecondProvider, type SecondProviderOptions } from '../support/second-provider';

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

/** A portal log line (pino JSON). */
interface LogLine {
  level: number;
  msg: string;
  [key: string]: unknown;
}

const WARN = 40;

describe.each(await testDialects())('a second, standalone provider with other claim shapes on %s', (dialect) => {
  let database: TestDatabase;
  let make: ReturnType<typeof factories>;
  const closing: Array<() => Promise<unknown>> = [];

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    make = factories({ db: database.db });
  });

  afterAll(async () => {
    for (const close of closing.reverse()) await close();
    await database?.drop();
  });

  async function provider(options: SecondProviderOptions): Promise<SecondProvider> {
    const started = await startSecondProvider(options);
    closing.push(() => started.close());
    return started;
  }

  /** A portal against `idp` with more settings, its log lines, and its profile call. */
  async function portalFor(idp: SecondProvider, env: Record<string, string> = {}) {
    const lines: LogLine[] = [];
    const config = loadConfig({
      NODE_ENV: 'test', PORT: '8080', LOG_LEVEL: 'info',
      OIDC_ISSUER: idp.issuer, OIDC_CLIENT_ID: idp.clientId, OIDC_AUDIENCE: idp.audience, ...env,
    });
    const app = await buildApp({ config, db: database.db, logStream: { write: (line) => void lines.push(JSON.parse(line) as LogLine) } });
    await app.ready();
    closing.push(() => app.close());
    const call = (tokens: { access_token: string; id_token?: string }) => app.inject({
      method: 'GET',
      url: '/api/auth/callback',
      headers: { authorization: `Bearer ${tokens.access_token}`, ...(tokens.id_token ? { 'x-id-token': tokens.id_token } : {}) },
    });
    return { app, lines, call, warnings: () => lines.filter((l) => l.level === WARN) };
  }

  /** A member of a fresh customer, known to the provider by `sub`. */
  async function memberAt(idp: SecondProvider, sub: string) {
    const organization = await make.organization();
    const person = await make.member(organization, { role: 'ISSUER' });
    idp.addAccount(sub, { email: person.email, email_verified: true, name: 'Grace Hopper', given_name: 'Grace', family_name: 'Hopper' });
    return { organization, person };
  }

  it('takes the email from userinfo when only userinfo has it, with the access token for an array of audiences', async () => {
    // Auth0's shape: the access token names the API and the provider's userinfo, and says nothing of the person.
    const idp = await provider({
      userinfo: 'accepts-access-token',
      claims: { userinfo: (a) => ({ email: a.email, email_verified: a.email_verified }) },
    });
    const { organization, person } = await memberAt(idp, 'auth0|grace');
    const tokens = await idp.signIn('auth0|grace');
    const access = decodeJwt(tokens.access_token);
    expect(access.aud).toEqual([idp.audience, `${idp.issuer}/userinfo-for-api`]);
    expect(access).not.toHaveProperty('email');
    expect(decodeJwt(tokens.id_token)).not.toHaveProperty('email');

    const portal = await portalFor(idp);
    const res = await portal.call(tokens);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ email: person.email, organization_name: organization.name });
    expect(idp.userinfoCalls.answered).toBe(1);
    // The next calls of the session do not ask again.
    expect((await portal.call(tokens)).statusCode).toBe(200);
    expect(idp.userinfoCalls.answered).toBe(1);
    // An access token for another API (an array without ours) is refused all the same.
    const other = await portalFor(idp, { OIDC_AUDIENCE: 'another-api' });
    expect((await other.call(tokens)).statusCode).toBe(401);
  });

  it("reads the web app's ID token where the provider refuses the access token at userinfo (the sign-in loop of issue 14)", async () => {
    // oidc-provider with resource indicators: the person is in the ID token, and its userinfo takes no API token.
    const idp = await provider({
      userinfo: 'own',
      claims: { idToken: (a) => ({ email: a.email, email_verified: a.email_verified, name: a.name }) },
    });
    const { person } = await memberAt(idp, 'grace');
    const tokens = await idp.signIn('grace');
    expect(decodeJwt(tokens.access_token)).not.toHaveProperty('email');
    const portal = await portalFor(idp);

    // Before: the access token alone. Userinfo refuses it, so nobody is told, and the refusal says so (not a 401 to loop on).
    const alone = await portal.call({ access_token: tokens.access_token });
    expect(alone.statusCode).toBe(403);
    expect(alone.json()).toMatchObject({ redirect: 'AccessError', message: expect.stringContaining('did not tell the portal your email address') });
    expect(idp.userinfoCalls.refused).toBe(1);
    expect(portal.warnings().at(-1)?.msg).toMatch(/userinfo refused the access token \(401\).*set OIDC_EMAIL_CLAIM/);

    const res = await portal.call(tokens);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ email: person.email });
    // Another person's ID token does not name the bearer.
    const eve = await memberAt(idp, 'eve');
    const eveTokens = await idp.signIn('eve');
    expect((await portal.call({ access_token: tokens.access_token, id_token: eveTokens.id_token })).json()).toMatchObject({ email: person.email });
    expect((await portal.call({ access_token: (await idp.signIn('grace')).access_token, id_token: eveTokens.id_token })).statusCode).toBe(403);
    expect((await portal.call(eveTokens)).json()).toMatchObject({ email: eve.person.email });
  });

  it('maps nested and renamed claims by configuration (OIDC_EMAIL_CLAIM, OIDC_EMAIL_VERIFIED_CLAIM, OIDC_NAME_CLAIM…)', async () => {
    const idp = await provider({
      userinfo: 'own',
      claims: {
        accessToken: (a) => ({ contact: { mail: a.email, checked: a.email_verified }, person: { display: a.name, first: a.given_name, last: a.family_name } }),
      },
    });
    // A newcomer of a trusted domain joins with the name the nested claims give.
    const trusting = await make.organization({ trusted: true });
    const email = `grace@${trusting.domain}`;
    idp.addAccount('g-1', { email, email_verified: true, name: 'Grace B. Hopper', given_name: 'Grace', family_name: 'Hopper' });
    const tokens = await idp.signIn('g-1');

    const unmapped = await portalFor(idp);
    expect((await unmapped.call(tokens)).statusCode).toBe(403);
    expect(unmapped.warnings().at(-1)).toMatchObject({ setting: 'OIDC_EMAIL_CLAIM', msg: expect.stringMatching(/"contact\.mail" holds an address: set OIDC_EMAIL_CLAIM/) });

    const mapped = await portalFor(idp, {
      OIDC_EMAIL_CLAIM: 'email,contact.mail', OIDC_EMAIL_VERIFIED_CLAIM: 'contact.checked',
      OIDC_NAME_CLAIM: 'person.display', OIDC_GIVEN_NAME_CLAIM: 'person.first', OIDC_FAMILY_NAME_CLAIM: 'person.last',
    });
    const res = await mapped.call(tokens);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ email, name: 'Grace B. Hopper', organization_name: trusting.name });
    expect(mapped.warnings()).toEqual([]);

    // The mapped verification says no: refused as unverified, a person's matter, not a setting's.
    idp.addAccount('g-2', { email: `ada@${trusting.domain}`, email_verified: false });
    const unverified = await mapped.call(await idp.signIn('g-2'));
    expect(unverified.statusCode).toBe(403);
    expect(unverified.json().message).toMatch(/not verified/);
    expect(mapped.warnings()).toEqual([]);
  });

  it('explains a sign-in it cannot resolve on the screen and in a warn line naming the setting, without a token or address in the log', async () => {
    // The email is at oidc-provider's userinfo only, which takes no API token: no source the portal may read has it.
    const idp = await provider({
      userinfo: 'own',
      claims: {
        accessToken: (a) => ({ upn: a.email }),
        idToken: (a) => ({ name: a.name }),
        userinfo: (a) => ({ email: a.email, email_verified: a.email_verified }),
      },
    });
    const { person } = await memberAt(idp, 'lost');
    const tokens = await idp.signIn('lost');
    const portal = await portalFor(idp);
    const res = await portal.call(tokens);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ redirect: 'AccessError', message: expect.stringMatching(/did not tell the portal your email address.*OIDC_EMAIL_CLAIM/) });
    const warning = portal.warnings().at(-1)!;
    expect(warning).toMatchObject({ reason: 'no_email', setting: 'OIDC_EMAIL_CLAIM' });
    expect(warning.msg).toBe(
      'sign-in refused, the person is unknown: access token and ID token have no claim "email" (userinfo refused the access token (401), as providers do that issue access tokens for an API only (oidc-provider with resource indicators, Entra ID)); "upn" holds an address: set OIDC_EMAIL_CLAIM to the claim that is the person\'s email',
    );
    const log = JSON.stringify(portal.lines);
    for (const secret of [tokens.access_token, tokens.id_token, person.email]) expect(log).not.toContain(secret);
    // The setting it names resolves the person.
    const fixed = await portalFor(idp, { OIDC_EMAIL_CLAIM: 'upn', OIDC_TRUST_EMAIL: 'true' });
    expect((await fixed.call(tokens)).json()).toMatchObject({ email: person.email });
  });

  it('warns with the setting when no claim says whether the email is verified', async () => {
    const idp = await provider({ userinfo: 'own', claims: { accessToken: (a) => ({ email: a.email }) } });
    await memberAt(idp, 'unsure');
    const portal = await portalFor(idp);
    const res = await portal.call(await idp.signIn('unsure'));
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toMatch(/not verified/);
    expect(portal.warnings().at(-1)).toMatchObject({ setting: 'OIDC_EMAIL_VERIFIED_CLAIM', msg: expect.stringMatching(/no claim "email_verified" says.*OIDC_TRUST_EMAIL=true/) });
  });

  it('refuses a discovery document whose issuer is not OIDC_ISSUER exactly', async () => {
    const idp = await provider({ userinfo: 'own', claims: { accessToken: (a) => ({ email: a.email, email_verified: true }) } });
    const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', OIDC_ISSUER: `${idp.issuer}/`, OIDC_CLIENT_ID: idp.clientId, OIDC_AUDIENCE: idp.audience });
    await expect(buildApp({ config, db: database.db, logger: false })).rejects.toThrow(
      `identity provider's issuer "${idp.issuer}" is not OIDC_ISSUER "${idp.issuer}/": set OIDC_ISSUER to exactly the issuer its discovery document names`,
    );
  });
});

describe('start-up against a provider whose discovery document names another issuer', () => {
  it('stays not ready with the reason on /readyz and a warn line, and accepts no token', async () => {
    const idp = await startSecondProvider({ userinfo: 'own', claims: { accessToken: (a) => ({ email: a.email, email_verified: true }) } });
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-issuer-'));
    const lines: LogLine[] = [];
    // The real server: main.ts retries the discovery and reports on /readyz (startup.ts).
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
      env: {
        ...process.env, PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: url, DATA_DIR: dataDir, WEB_ROOT: dataDir, DATABASE_URL: '',
        LOG_LEVEL: 'info', NODE_ENV: 'development', SEED_DEMO: 'false',
        OIDC_ISSUER: `${idp.issuer}/`, OIDC_CLIENT_ID: idp.clientId, OIDC_AUDIENCE: idp.audience,
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let pending = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      const complete = (pending + chunk.toString()).split('\n');
      pending = complete.pop()!;
      for (const line of complete) if (line.startsWith('{')) lines.push(JSON.parse(line) as LogLine);
    });
    try {
      await waitFor(`${url}/healthz`, 60_000);
      const mismatch = `identity provider's issuer "${idp.issuer}" is not OIDC_ISSUER "${idp.issuer}/": set OIDC_ISSUER to exactly the issuer its discovery document names`;
      let readiness: { status: number; reason?: string } = { status: 0 };
      for (const until = Date.now() + 30_000; Date.now() < until && !readiness.reason?.startsWith(mismatch); await new Promise((r) => setTimeout(r, 250))) {
        const res = await fetch(`${url}/readyz`);
        readiness = { status: res.status, reason: ((await res.json()) as { reason?: string }).reason };
      }
      expect(readiness.status).toBe(503);
      expect(readiness.reason).toMatch(new RegExp(`^${mismatch.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}, retrying in \\d+ s(;|$)`));
      expect(lines.filter((l) => l.level === WARN).map((l) => l.msg)).toContainEqual(expect.stringMatching(/^identity provider's issuer .* is not OIDC_ISSUER .*, retrying in \d+ s$/));

      // The provider's genuine token is not taken while it is so.
      idp.addAccount('someone', { email: 'someone@example.com', email_verified: true });
      const tokens = await idp.signIn('someone');
      expect((await fetch(`${url}/api/auth/callback`, { headers: { authorization: `Bearer ${tokens.access_token}` } })).status).toBe(503);
    } finally {
      child.kill('SIGKILL');
      await new Promise((resolve) => (child.exitCode === null ? child.once('exit', resolve) : resolve(null)));
      await idp.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
