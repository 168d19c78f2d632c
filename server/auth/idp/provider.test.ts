/**
 * The built-in provider end to end over real HTTP: discovery, sign-in page, code flow with PKCE,
 * JWT access tokens the API accepts, refresh, sign-out, and sessions that survive a restart.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalJWKSet, decodeJwt, decodeProtectedHeader } from 'jose';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../app';
import { loadConfig, type Config } from '../../config';
import { openDatabase, type Db } from '../../db/database';
import { migrateToLatest } from '../../db/migrate';
import { createVerifier } from '../tokens';
import { createTestDatabase, testDialects, type TestDatabase } from '../../../test/support/databases';
import { factories } from '../../../test/support/factories';
import { KyselyAdapter } from './adapter';
import { loadProviderKeys } from './keys';
import { hashPassword } from './passwords';

const EMAIL = 'ada@example.com';
const PASSWORD = 'correct horse battery staple';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

interface Portal {
  app: FastifyInstance;
  db: Db;
  config: Config;
  publicUrl: string;
  accountId: string;
  close(): Promise<void>;
}

interface PortalOptions {
  /** More settings (TRUST_PROXY, LOG_LEVEL). */
  env?: Record<string, string>;
  /** Where the portal's logger writes; no logger without one. */
  logStream?: { write(line: string): void };
}

/** A portal on a SQLite file (or ':memory:'), or on a test database of either engine (which it then drops). */
async function startPortal(database: string | TestDatabase, port: number, options: PortalOptions = {}): Promise<Portal> {
  const publicUrl = `http://127.0.0.1:${port}`;
  const config = loadConfig({ NODE_ENV: 'test', PORT: String(port), PUBLIC_URL: publicUrl, LOG_LEVEL: 'silent', SEED_DEMO: 'false', ...options.env });
  const db = typeof database === 'string' ? openDatabase({ sqliteFile: database }) : database.db;
  const closeDb = typeof database === 'string' ? () => db.destroy() : () => database.drop();
  await migrateToLatest(db);
  let account = await db.selectFrom('accounts').select('account_id').where('email', '=', EMAIL).executeTakeFirst();
  if (!account) {
    account = { account_id: randomUUID() };
    await db.insertInto('accounts').values({
      account_id: account.account_id, email: EMAIL, password_hash: await hashPassword(PASSWORD),
      name: 'Ada Lovelace', given_name: 'Ada', family_name: 'Lovelace', email_verified: 1, date_created: new Date().toISOString(),
    }).execute();
  }
  const app = await buildApp({ config, db, ...(options.logStream ? { logStream: options.logStream } : { logger: false }) });
  await app.listen({ port, host: '127.0.0.1' });
  return { app, db, config, publicUrl, accountId: account.account_id, close: async () => { await app.close(); await closeDb(); } };
}

/** A browser's cookies, enough for the provider's: name, value, path. */
class CookieJar {
  private cookies = new Map<string, { name: string; value: string; path: string }>();
  /** Every value a cookie ever had (the log test looks for them). */
  readonly seen = new Set<string>();

  store(response: Response) {
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';').map((part) => part.trim());
      const name = pair.slice(0, pair.indexOf('='));
      const value = pair.slice(pair.indexOf('=') + 1);
      if (value) this.seen.add(value);
      const attr = (key: string) => attributes.find((a) => a.toLowerCase().startsWith(`${key}=`))?.split('=')[1];
      const cookiePath = attr('path') ?? '/';
      const expires = attr('expires');
      const gone = !value || attr('max-age') === '0' || (expires !== undefined && new Date(expires).getTime() < Date.now());
      if (gone) this.cookies.delete(`${name};${cookiePath}`);
      else this.cookies.set(`${name};${cookiePath}`, { name, value, path: cookiePath });
    }
  }

  header(url: URL) {
    return [...this.cookies.values()].filter((c) => url.pathname.startsWith(c.path)).map((c) => `${c.name}=${c.value}`).join('; ');
  }
}

class Browser {
  jar = new CookieJar();

  async request(url: string | URL, init: { method?: string; form?: Record<string, string>; headers?: Record<string, string> } = {}) {
    const target = new URL(url);
    const headers: Record<string, string> = { ...init.headers, cookie: this.jar.header(target) };
    const body = init.form ? new URLSearchParams(init.form).toString() : undefined;
    if (body) headers['content-type'] = 'application/x-www-form-urlencoded';
    const response = await fetch(target, { method: init.method ?? (body ? 'POST' : 'GET'), headers, body, redirect: 'manual' });
    this.jar.store(response);
    return response;
  }

  /** Follows redirects, but stops at the portal's own pages (the web app would take over there). */
  async follow(url: string | URL, publicUrl: string, init: { method?: string; form?: Record<string, string> } = {}) {
    let response = await this.request(url, init);
    let current = new URL(url);
    while (response.status >= 300 && response.status < 400) {
      current = new URL(response.headers.get('location')!, current);
      if (!current.pathname.startsWith('/oidc')) return { response, url: current };
      response = await this.request(current);
    }
    return { response, url: current };
  }
}

function pkce() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

function authorizeUrl(portal: Portal, challenge?: string, extra: Record<string, string> = {}) {
  const url = new URL(`${portal.config.oidc.issuer}/auth`);
  url.search = new URLSearchParams({
    ...extra,
    client_id: portal.config.oidc.clientId,
    response_type: 'code',
    redirect_uri: `${portal.publicUrl}/auth/callback`,
    scope: 'openid profile email offline_access',
    state: 'state-1',
    ...(challenge ? { code_challenge: challenge, code_challenge_method: 'S256' } : {}),
  }).toString();
  return url;
}

async function tokenRequest(portal: Portal, form: Record<string, string>) {
  const response = await fetch(`${portal.config.oidc.issuer}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ client_id: portal.config.oidc.clientId, ...form }).toString(),
  });
  return { status: response.status, body: (await response.json()) as Record<string, string> };
}

/** Signs in from scratch; answers the callback URL the browser lands on. */
async function signIn(portal: Portal, browser: Browser, challenge: string, email = EMAIL, password = PASSWORD, extra: Record<string, string> = {}) {
  const { url: loginUrl } = await browser.follow(authorizeUrl(portal, challenge, extra), portal.publicUrl);
  const { url } = await browser.follow(`${loginUrl.href}/login`, portal.publicUrl, { form: { email, password } });
  return url;
}

function cspOf(response: Response) {
  return response.headers.get('content-security-policy') ?? '';
}

describe('built-in OpenID Connect provider', () => {
  let portal: Portal;

  beforeAll(async () => {
    portal = await startPortal(':memory:', await freePort());
  });
  afterAll(async () => {
    await portal?.close();
  });

  /**
   * A sign-in account of this test's own (the factories'): wrong passwords count against one
   * account (10 a minute), so no test's attempts hold up another's sign-in.
   */
  const account = (name = 'Ada Lovelace') => factories({ db: portal.db }).account({ password: PASSWORD, name });
  /** A new browser on the sign-in page of an authorization request. */
  async function onSignInPage(challenge = pkce().challenge) {
    const browser = new Browser();
    const { response, url } = await browser.follow(authorizeUrl(portal, challenge), portal.publicUrl);
    return { browser, response, loginPage: url };
  }
  /** A browser signed in with an account of its own, and the tokens of its code flow. */
  async function signedIn() {
    const person = await account();
    const browser = new Browser();
    const { verifier, challenge } = pkce();
    const callback = await signIn(portal, browser, challenge, person.email);
    expect(callback.pathname).toBe('/auth/callback');
    const { status, body } = await tokenRequest(portal, {
      grant_type: 'authorization_code', code: callback.searchParams.get('code')!, redirect_uri: `${portal.publicUrl}/auth/callback`, code_verifier: verifier,
    });
    expect(status).toBe(200);
    return { person, browser, tokens: body };
  }

  it('publishes its discovery document under /oidc', async () => {
    const response = await fetch(`${portal.publicUrl}/oidc/.well-known/openid-configuration`);
    expect(response.status).toBe(200);
    const metadata = await response.json();
    expect(metadata).toMatchObject({
      issuer: `${portal.publicUrl}/oidc`,
      authorization_endpoint: `${portal.publicUrl}/oidc/auth`,
      token_endpoint: `${portal.publicUrl}/oidc/token`,
      end_session_endpoint: `${portal.publicUrl}/oidc/session/end`,
      code_challenge_methods_supported: ['S256'],
    });
  });

  it('sends an authorization request without a session to the sign-in page', async () => {
    const { response, loginPage: url } = await onSignInPage();
    expect(url.pathname).toMatch(/^\/oidc\/interaction\/[\w-]+$/);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/html');
    const html = await response.text();
    expect(html).toContain('<html lang="en">');
    expect(html).toContain('<main');
    expect(html).toContain('<h1>Sign in</h1>');
    expect(html).toContain('Customer Portal');
    expect(html).toContain('<label for="email">Email</label>');
    expect(html).toContain('<label for="password">Password</label>');
    expect(html).toMatch(/<button type="submit">Sign in<\/button>/);
    expect(html).not.toMatch(/<script|<style|style=/);
    const csp = cspOf(response);
    expect(csp).toContain("default-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
  });

  it('serves the page stylesheet from its own origin', async () => {
    const response = await fetch(`${portal.publicUrl}/oidc-assets/login.css`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/css');
    expect(await response.text()).toContain('.card');
    const script = await fetch(`${portal.publicUrl}/oidc-assets/logout.js`);
    expect(script.headers.get('content-type')).toContain('text/javascript');
  });

  it('answers a wrong password or an unknown email with 401 and the error text', async () => {
    const person = await account();
    const { browser, loginPage } = await onSignInPage();
    // Counted for operators by outcome (GET /metrics), never by whom.
    const failed = async () => Number(/^portal_password_sign_ins_total\{outcome="failed"\} (\d+)/m.exec(await (await fetch(`${portal.publicUrl}/metrics`)).text())?.[1] ?? 0);
    const before = await failed();
    for (const form of [{ email: person.email, password: 'Tr0ub4dor&3' }, { email: `nobody-${person.id}@example.com`, password: PASSWORD }]) {
      const response = await browser.request(`${loginPage.href}/login`, { form });
      expect(response.status).toBe(401);
      const html = await response.text();
      expect(html).toContain('role="alert"');
      expect(html).toContain('Email or password is wrong.');
      expect(html).toContain(`value="${form.email}"`);
      expect(html).not.toContain(form.password);
    }
    expect(await failed()).toBe(before + 2);
  });

  it('signs in with the right password (any case of email) and redirects to the callback with a code', async () => {
    const person = await account();
    const { verifier, challenge } = pkce();
    const { browser, loginPage } = await onSignInPage(challenge);
    const { url } = await browser.follow(`${loginPage.href}/login`, portal.publicUrl, { form: { email: ` ${person.email.toUpperCase()} `, password: PASSWORD } });
    expect(`${url.origin}${url.pathname}`).toBe(`${portal.publicUrl}/auth/callback`);
    expect(url.searchParams.get('state')).toBe('state-1');
    const code = url.searchParams.get('code');
    expect(code).toBeTruthy();

    const { status, body } = await tokenRequest(portal, {
      grant_type: 'authorization_code', code: code!, redirect_uri: `${portal.publicUrl}/auth/callback`, code_verifier: verifier,
    });
    expect(status).toBe(200);
    expect(body).toMatchObject({ token_type: 'Bearer', access_token: expect.any(String), id_token: expect.any(String), refresh_token: expect.any(String) });
    expect(decodeJwt(body.access_token).email).toBe(person.email);
  });

  it('issues a JWT access token the API verifier accepts, with the person in it', async () => {
    const { person, tokens } = await signedIn();
    const { publicJwks } = await loadProviderKeys(portal.db);
    const verifier = createVerifier({ issuer: portal.config.oidc.issuer, audience: portal.config.oidc.audience, keys: createLocalJWKSet(publicJwks) });
    const identity = await verifier.verify(tokens.access_token);
    expect(identity).toEqual({
      subject: person.id, email: person.email, email_verified: true, verification_stated: true, name: 'Ada Lovelace', given_name: 'Ada', family_name: 'Lovelace',
    });
    const claims = decodeJwt(tokens.access_token);
    expect(claims.aud).toBe('customer-portal-api');
    expect((claims.exp ?? 0) - (claims.iat ?? 0)).toBe(15 * 60);
    // The web app reads the person from the ID token.
    expect(decodeJwt(tokens.id_token)).toMatchObject({ sub: person.id, email: person.email, name: 'Ada Lovelace' });
  });

  it('lets the API take its access token but not its ID token', async () => {
    const { tokens } = await signedIn();
    const call = (token: string) => fetch(`${portal.publicUrl}/api/auth/callback`, { headers: { authorization: `Bearer ${token}` } });
    // A genuine person without an organization (this portal has no demo data): past the token check.
    expect((await call(tokens.access_token)).status).toBe(403);
    // The ID token: same issuer and key, but addressed to the client and not typed at+jwt.
    expect(decodeJwt(tokens.id_token).aud).toBe(portal.config.oidc.clientId);
    expect(decodeProtectedHeader(tokens.id_token).typ).toBeUndefined();
    expect(decodeProtectedHeader(tokens.access_token).typ).toBe('at+jwt');
    expect((await call(tokens.id_token)).status).toBe(401);
  });

  it('renews with the refresh token, rotating it', async () => {
    const { person, tokens } = await signedIn();
    // The access token's only scope is the API's, which the web app does not ask for: the token
    // response says scope "", and oidc-client-ts sends that back on refresh.
    expect(tokens.scope).toBe('');
    const first = await tokenRequest(portal, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token, scope: '' });
    expect(first.status).toBe(200);
    expect(decodeJwt(first.body.access_token)).toMatchObject({ sub: person.id, email: person.email, aud: 'customer-portal-api' });
    expect(first.body.refresh_token).toBeTruthy();
    expect(first.body.refresh_token).not.toBe(tokens.refresh_token);

    const second = await tokenRequest(portal, { grant_type: 'refresh_token', refresh_token: first.body.refresh_token });
    expect(second.status).toBe(200);
    const reused = await tokenRequest(portal, { grant_type: 'refresh_token', refresh_token: first.body.refresh_token });
    expect(reused.body.error).toBe('invalid_grant');
    // A replayed refresh token revokes the whole grant, the newest token included.
    const afterReplay = await tokenRequest(portal, { grant_type: 'refresh_token', refresh_token: second.body.refresh_token });
    expect(afterReplay.body.error).toBe('invalid_grant');
  });

  it('refuses a code flow without PKCE', async () => {
    // Signed in, so nothing but the missing challenge stands between the request and a code.
    const { browser } = await signedIn();
    const { url } = await browser.follow(authorizeUrl(portal), portal.publicUrl);
    expect(url.pathname).toBe('/auth/callback');
    expect(url.searchParams.get('error')).toBe('invalid_request');
    expect(url.searchParams.get('code')).toBeNull();
  });

  it('goes straight to the callback while the session lasts', async () => {
    const { browser } = await signedIn();
    const { url } = await browser.follow(authorizeUrl(portal, pkce().challenge), portal.publicUrl);
    expect(url.pathname).toBe('/auth/callback');
    expect(url.searchParams.get('code')).toBeTruthy();
  });

  it('renders its errors as a page without inline script', async () => {
    const response = await fetch(`${portal.config.oidc.issuer}/auth?client_id=nobody&response_type=code`);
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(html).toContain('Sign-in problem');
    expect(html).not.toMatch(/<script|<style/);
    expect(cspOf(response)).not.toContain('unsafe-inline');
  });

  it('answers a sign-in page without its interaction cookie with an "expired" page', async () => {
    const response = await fetch(`${portal.publicUrl}/oidc/interaction/unknown`);
    expect(response.status).toBe(400);
    expect(await response.text()).toContain('expired');
  });

  it('signs out (RP-initiated logout) and returns to the portal', async () => {
    const { browser, tokens } = await signedIn();
    const endSession = new URL(`${portal.config.oidc.issuer}/session/end`);
    endSession.search = new URLSearchParams({ id_token_hint: tokens.id_token, post_logout_redirect_uri: `${portal.publicUrl}/login` }).toString();
    const page = await browser.request(endSession);
    expect(page.status).toBe(200);
    expect(cspOf(page)).not.toContain('unsafe-inline');
    const html = await page.text();
    expect(html).toContain('<h1>Sign out</h1>');
    expect(html).toContain('<script src="/oidc-assets/logout.js" defer></script>');
    expect(html).not.toMatch(/<script>|<style/);
    const action = html.match(/action="([^"]+)"/)![1];
    const xsrf = html.match(/name="xsrf" value="([^"]+)"/)![1];

    const { url } = await browser.follow(new URL(action, portal.publicUrl), portal.publicUrl, { form: { xsrf, logout: 'yes' } });
    expect(url.href).toBe(`${portal.publicUrl}/login`);

    const again = await browser.follow(authorizeUrl(portal, pkce().challenge), portal.publicUrl);
    expect(again.url.pathname).toMatch(/^\/oidc\/interaction\//);
  });

  it('limits sign-in attempts to 10 a minute', async () => {
    const person = await account();
    const { browser, loginPage } = await onSignInPage();
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      const response = await browser.request(`${loginPage.href}/login`, { form: { email: person.email, password: `guess ${i}` } });
      statuses.push(response.status);
    }
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(statuses[10]).toBe(429);
    // The limit is the account's: another person still signs in from the same address.
    const other = await account();
    expect((await signIn(portal, new Browser(), pkce().challenge, other.email)).pathname).toBe('/auth/callback');
  });
});

describe('built-in provider across a restart', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'portal-idp-'));
  const file = path.join(dir, 'portal.db');
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps the session: a second authorization skips the sign-in page', async () => {
    const port = await freePort();
    const browser = new Browser();
    const first = await startPortal(file, port);
    try {
      const callback = await signIn(first, browser, pkce().challenge);
      expect(callback.pathname).toBe('/auth/callback');
    } finally {
      await first.close();
    }

    const second = await startPortal(file, port);
    try {
      const { verifier, challenge } = pkce();
      const { url } = await browser.follow(authorizeUrl(second, challenge), second.publicUrl);
      expect(url.pathname).toBe('/auth/callback');
      const { status, body } = await tokenRequest(second, {
        grant_type: 'authorization_code', code: url.searchParams.get('code')!, redirect_uri: `${second.publicUrl}/auth/callback`, code_verifier: verifier,
      });
      expect(status).toBe(200);
      expect(decodeJwt(body.access_token).email).toBe(EMAIL);
    } finally {
      await second.close();
    }
  });
});

describe('sign-in limits of the built-in provider', () => {
  const WRONG = 'not the password';

  /** A portal of its own (fresh counters) with a browser on its sign-in page. */
  async function onSignInPage(env: Record<string, string>, run: (attempt: (email: string, forwardedFor?: string, password?: string) => Promise<Response>) => Promise<void>) {
    const portal = await startPortal(':memory:', await freePort(), { env });
    try {
      const browser = new Browser();
      const { url: loginPage } = await browser.follow(authorizeUrl(portal, pkce().challenge), portal.publicUrl);
      expect(loginPage.pathname).toMatch(/^\/oidc\/interaction\//);
      await run((email, forwardedFor, password = WRONG) =>
        browser.request(`${loginPage.href}/login`, { form: { email, password }, headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {} }));
    } finally {
      await portal.close();
    }
  }

  /** The answers to n attempts sent at once (each costs a password hash), in ascending order. */
  const statuses = async (n: number, attempt: (i: number) => Promise<Response>) => {
    const answers = await Promise.all(Array.from({ length: n }, async (_, i) => (await attempt(i)).status));
    return answers.sort();
  };
  const twentyThen429 = [...Array<number>(20).fill(401), ...Array<number>(10).fill(429)];

  it('stops 30 different emails from one address after 20, even with the right password', async () => {
    await onSignInPage({}, async (attempt) => {
      expect(await statuses(30, (i) => attempt(`person${i}@example.com`))).toEqual(twentyThen429);
      const right = await attempt(EMAIL, undefined, PASSWORD);
      expect(right.status).toBe(429);
      expect(Number(right.headers.get('retry-after'))).toBeGreaterThan(0);
      const html = await right.text();
      expect(html).toContain('role="alert"');
      expect(html).toContain('Too many sign-in attempts.');
    });
  }, 60_000);

  it('ignores X-Forwarded-For without TRUST_PROXY: a new header on each try is still one address', async () => {
    await onSignInPage({}, async (attempt) => {
      expect(await statuses(30, (i) => attempt(`person${i}@example.com`, `203.0.113.${i + 1}`))).toEqual(twentyThen429);
    });
  }, 60_000);

  it.each([['addresses', '127.0.0.1'], ['a hop count', '1']])('counts the forwarded address when TRUST_PROXY names the proxy (%s)', async (_kind, trustProxy) => {
    await onSignInPage({ TRUST_PROXY: trustProxy }, async (attempt) => {
      expect(await statuses(21, (i) => attempt(`person${i}@example.com`, `198.51.100.9, 203.0.113.1`))).toEqual([...Array<number>(20).fill(401), 429]);
      // Another client behind the same proxy is not held up by the first.
      expect((await attempt('someone@example.com', '203.0.113.2')).status).toBe(401);
      // One account from many addresses: the per-account limit holds across them.
      expect(await statuses(11, (i) => attempt(EMAIL, `203.0.113.${i + 10}`))).toEqual([...Array<number>(10).fill(401), 429]);
    });
  }, 60_000);
});

describe('the request log during a sign-in', () => {
  it('holds no code, interaction id, token, password, cookie or query string', async () => {
    const lines: string[] = [];
    const portal = await startPortal(':memory:', await freePort(), { env: { LOG_LEVEL: 'trace' }, logStream: { write: (line) => void lines.push(line) } });
    try {
      const browser = new Browser();
      const { verifier, challenge } = pkce();
      const { url: loginPage } = await browser.follow(authorizeUrl(portal, challenge), portal.publicUrl);
      const uid = loginPage.pathname.split('/').pop()!;
      const wrongPassword = 'Tr0ub4dor&3-wrong';
      expect((await browser.request(`${loginPage.href}/login`, { form: { email: EMAIL, password: wrongPassword } })).status).toBe(401);
      const { url: callback } = await browser.follow(`${loginPage.href}/login`, portal.publicUrl, { form: { email: EMAIL, password: PASSWORD } });
      const code = callback.searchParams.get('code')!;
      expect(code).toBeTruthy();
      // The browser loads the web app's callback page, code and state in its query.
      await browser.request(callback);
      const { body: tokens } = await tokenRequest(portal, {
        grant_type: 'authorization_code', code, redirect_uri: `${portal.publicUrl}/auth/callback`, code_verifier: verifier,
      });
      expect(tokens.access_token).toBeTruthy();
      await fetch(`${portal.publicUrl}/api/auth/callback`, { headers: { authorization: `Bearer ${tokens.access_token}` } });
      await fetch(`${portal.publicUrl}/api/auth/callback`, { headers: { authorization: `Bearer ${tokens.access_token}x` } });
      const { body: renewed } = await tokenRequest(portal, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token });
      expect(renewed.access_token).toBeTruthy();
      const endSession = new URL(`${portal.config.oidc.issuer}/session/end`);
      endSession.search = new URLSearchParams({ id_token_hint: tokens.id_token, post_logout_redirect_uri: `${portal.publicUrl}/login` }).toString();
      const html = await (await browser.request(endSession)).text();
      const xsrf = html.match(/name="xsrf" value="([^"]+)"/)![1];
      await browser.follow(new URL(html.match(/action="([^"]+)"/)![1], portal.publicUrl), portal.publicUrl, { form: { xsrf, logout: 'yes' } });

      const log = lines.join('');
      const secrets = {
        code, uid, verifier, wrongPassword, password: PASSWORD, xsrf,
        accessToken: tokens.access_token, refreshToken: tokens.refresh_token, idToken: tokens.id_token,
        renewedAccessToken: renewed.access_token, renewedRefreshToken: renewed.refresh_token,
        ...Object.fromEntries([...browser.jar.seen].filter((value) => value.length >= 8).map((value, i) => [`cookie${i}`, value])),
      };
      expect(Object.keys(secrets).filter((k) => k.startsWith('cookie')).length).toBeGreaterThan(1);
      for (const [name, secret] of Object.entries(secrets)) expect(log.includes(secret), name).toBe(false);
      // The log did record the sign-in, by path.
      const urls = lines.map((line) => JSON.parse(line) as { req?: { url: string } }).flatMap((entry) => (entry.req ? [entry.req.url] : []));
      expect(urls).toEqual(expect.arrayContaining(['/oidc/auth', '/oidc/interaction/:uid', '/oidc/interaction/:uid/login', '/oidc/auth/:uid', '/auth/callback', '/oidc/token', '/api/auth/callback', '/oidc/session/end']));
      expect(urls.filter((url) => url.includes('?'))).toEqual([]);
    } finally {
      await portal.close();
    }
  });
});

const dialects = await testDialects();

describe.each(dialects)('oidc_payloads adapter on %s', (dialect) => {
  let db: Db;
  let drop: () => Promise<void>;
  beforeAll(async () => ({ db, drop } = await createTestDatabase(dialect)));
  afterAll(() => drop());

  it('stores, updates, consumes, finds by uid and user code, and revokes by grant', async () => {
    const codes = new KyselyAdapter(db, 'AuthorizationCode');
    const sessions = new KyselyAdapter(db, 'Session');
    await codes.upsert('c1', { jti: 'c1', grantId: 'g1', userCode: 'ABCD' }, 60);
    await codes.upsert('c1', { jti: 'c1', grantId: 'g1', userCode: 'ABCD', scope: 'openid' }, 60);
    await sessions.upsert('s1', { jti: 's1', uid: 'u1' }, 60);
    expect(await codes.find('c1')).toEqual({ jti: 'c1', grantId: 'g1', userCode: 'ABCD', scope: 'openid' });
    expect(await sessions.find('c1')).toBeUndefined();
    expect(await codes.findByUserCode('ABCD')).toMatchObject({ jti: 'c1' });
    expect(await sessions.findByUid('u1')).toEqual({ jti: 's1', uid: 'u1' });

    await codes.consume('c1');
    expect((await codes.find('c1'))?.consumed).toEqual(expect.any(Number));

    await codes.revokeByGrantId('g1');
    expect(await codes.find('c1')).toBeUndefined();
    await sessions.destroy('s1');
    expect(await sessions.findByUid('u1')).toBeUndefined();
  });

  it('treats expired rows as missing', async () => {
    const grants = new KyselyAdapter(db, 'Grant');
    await grants.upsert('g2', { jti: 'g2' }, 60);
    await db.updateTable('oidc_payloads').set({ expires_at: Math.floor(Date.now() / 1000) - 1 }).where('id', '=', 'g2').execute();
    expect(await grants.find('g2')).toBeUndefined();
  });
});

describe.each(dialects)('sign-out ends the refresh token on %s', (dialect) => {
  let portal: Portal;
  beforeAll(async () => {
    portal = await startPortal(await createTestDatabase(dialect), await freePort());
  });
  afterAll(() => portal?.close());

  /** A browser signed in (code + PKCE, offline_access) with an account of its own, and its tokens. */
  async function signedIn(email?: string, extra: Record<string, string> = {}) {
    const person = email ? { email } : await factories({ db: portal.db }).account({ password: PASSWORD });
    const browser = new Browser();
    const { verifier, challenge } = pkce();
    const callback = await signIn(portal, browser, challenge, person.email, PASSWORD, extra);
    expect(callback.pathname).toBe('/auth/callback');
    const { status, body } = await tokenRequest(portal, {
      grant_type: 'authorization_code', code: callback.searchParams.get('code')!, redirect_uri: `${portal.publicUrl}/auth/callback`, code_verifier: verifier,
    });
    expect(status).toBe(200);
    expect(body.refresh_token).toBeTruthy();
    return { person, browser, tokens: body };
  }
  const refresh = (refreshToken: string) => tokenRequest(portal, { grant_type: 'refresh_token', refresh_token: refreshToken });

  /** The web app's sign-out at the provider: end_session with the ID token, then the confirmation it submits. */
  async function endSession(browser: Browser, idToken: string) {
    const endSessionUrl = new URL(`${portal.config.oidc.issuer}/session/end`);
    endSessionUrl.search = new URLSearchParams({ id_token_hint: idToken, post_logout_redirect_uri: `${portal.publicUrl}/login` }).toString();
    const html = await (await browser.request(endSessionUrl)).text();
    const xsrf = html.match(/name="xsrf" value="([^"]+)"/)![1];
    const { url } = await browser.follow(new URL(html.match(/action="([^"]+)"/)![1], portal.publicUrl), portal.publicUrl, { form: { xsrf, logout: 'yes' } });
    expect(url.href).toBe(`${portal.publicUrl}/login`);
  }

  it('names its revocation endpoint in the discovery document', async () => {
    const metadata = await (await fetch(`${portal.config.oidc.issuer}/.well-known/openid-configuration`)).json();
    expect(metadata.revocation_endpoint).toBe(`${portal.config.oidc.issuer}/token/revocation`);
  });

  // prompt=consent is what makes oidc-provider keep offline_access, and with it a grant that outlives the session.
  it.each([['', {}], [' (prompt=consent)', { prompt: 'consent' }]])('refuses the refresh token after RP-initiated logout%s, and only that session’s', async (_name, extra) => {
    const { person, browser, tokens } = await signedIn(undefined, extra);
    expect(decodeJwt(tokens.id_token)).toMatchObject({ email: person.email });
    // The same person on a second device: a session and grant of its own, which this sign-out leaves alone.
    const other = await signedIn(person.email);
    const renewed = await refresh(tokens.refresh_token);
    expect(renewed.status).toBe(200);

    await endSession(browser, tokens.id_token);

    for (const token of [renewed.body.refresh_token, tokens.refresh_token]) {
      const after = await refresh(token);
      expect(after.status).toBe(400);
      expect(after.body.error).toBe('invalid_grant');
    }
    expect((await refresh(other.tokens.refresh_token)).status).toBe(200);
  });

  it('revokes the refresh token at the revocation endpoint (what the web app does before leaving)', async () => {
    const { tokens } = await signedIn();
    const response = await fetch(`${portal.config.oidc.issuer}/token/revocation`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ client_id: portal.config.oidc.clientId, token: tokens.refresh_token, token_type_hint: 'refresh_token' }).toString(),
    });
    expect(response.status).toBe(200);
    const after = await refresh(tokens.refresh_token);
    expect(after.status).toBe(400);
    expect(after.body.error).toBe('invalid_grant');
  });
});
