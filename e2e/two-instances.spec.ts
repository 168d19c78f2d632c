/**
 * Two instances, proven (issue 14 item 5): two portals on one fresh PostgreSQL database, both with
 * the demo data (migrated and seeded once), behind a round-robin proxy on 127.0.0.1 that is their
 * PUBLIC_URL, each given the same master secret. The supervisor signs in through instance A only,
 * works through B only (a gateway token, an approval, the token refreshed at B with A's refresh
 * token), then both take turns: a member signs in, the supervisor goes through pages, and both
 * instances answer. A ban made through A shuts the member out at A and at B on the next request;
 * the gateway exports carry the same ETag on both, before and after the approval.
 * Needs PostgreSQL: skipped without it, failed under CI=true.
 */
import type { Browser, BrowserContext, Page } from '@playwright/test';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../scripts/free-port.mjs';
import { freshDatabase, postgresReachable, startPortal, type Database, type Portal } from './portals';
import { startRoundRobinProxy, type RoundRobinProxy, type Served } from './proxy';
import { MASTER_SECRET, apiOf, expect, organizationIdOf, row, signInToCertificates, test, toast } from './support';

const A = 0;
const B = 1;
const CONTOSO_MEMBER = 'member@contoso.example';

const heading = (page: Page, name: string | RegExp) => page.getByRole('heading', { level: 1, name });
const sidebarLink = (page: Page, name: string) => page.getByLabel('Organization sidebar').getByRole('link', { name, exact: true });

/** The stored OIDC user of the page (lib/stored-user.ts): the tokens and when the access token expires. */
const storedUser = (page: Page) =>
  page.evaluate(() => {
    const key = Object.keys(window.localStorage).find((k) => k.startsWith('oidc.user:'))!;
    return JSON.parse(window.localStorage.getItem(key)!) as { access_token: string; refresh_token: string; expires_at: number };
  });

/** GET with a bearer token straight at one instance, past the proxy. */
const direct = (portal: Portal, url: string, token: string, headers: Record<string, string> = {}) =>
  fetch(`${portal.url}${url}`, { headers: { authorization: `Bearer ${token}`, ...headers } });

/** The ETags of both gateway exports at one instance. */
async function exportTags(portal: Portal, gatewayToken: string) {
  const tags: string[] = [];
  for (const url of ['/api/piston/routes.hcl', '/api/piston/certs']) {
    const answer = await direct(portal, url, gatewayToken);
    expect(answer.status, `${url} at ${portal.url}`).toBe(200);
    await answer.arrayBuffer();
    tags.push(answer.headers.get('etag') ?? '');
  }
  return { routes: tags[0], certs: tags[1] };
}

test.describe('two instances on one PostgreSQL behind a round-robin proxy', () => {
  const cleanups: Array<() => Promise<unknown>> = [];
  let portals: Portal[] = [];
  let proxy: RoundRobinProxy;
  let database: Database;

  test.beforeAll(async () => {
    test.skip(!(await postgresReachable()), 'PostgreSQL is not reachable (TEST_DATABASE_URL); CI=true requires it');
    database = await freshDatabase('e2e_two');
    cleanups.push(() => database.drop());
    const [proxyPort, portA, portB] = [await freePort(), await freePort(), await freePort()];
    proxy = await startRoundRobinProxy(proxyPort, [`http://127.0.0.1:${portA}`, `http://127.0.0.1:${portB}`]);
    cleanups.push(() => proxy.close());
    // The same settings on both, as an operator gives them: the database, the public address (the
    // balancer's), the master secret's file.
    const secretFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'portal-e2e-secret-')), 'master-secret');
    fs.writeFileSync(secretFile, MASTER_SECRET, { mode: 0o600 });
    cleanups.push(async () => fs.rmSync(path.dirname(secretFile), { recursive: true, force: true }));
    const env = { DATABASE_URL: database.url, PUBLIC_URL: proxy.url, SEED_DEMO: 'true', MASTER_SECRET_FILE: secretFile };
    // Started together: the first to take the advisory lock migrates and seeds, the other waits for it.
    const started = await Promise.allSettled([portA, portB].map((port) => startPortal(port, env)));
    portals = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
    cleanups.push(() => Promise.all(portals.map((p) => p.stop())));
    for (const s of started) if (s.status === 'rejected') throw s.reason;
  });

  test.afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  /** A browser context of its own whose pages reach the portals through the proxy, watched like every test's. */
  async function throughProxy(browser: Browser, watch: (context: BrowserContext) => Promise<void>): Promise<Page> {
    const context = await browser.newContext({ baseURL: proxy.url });
    cleanups.push(() => context.close());
    await watch(context);
    return context.newPage();
  }

  /** What the proxy passed on from `mark` on. */
  const servedSince = (mark: number): Served[] => proxy.served.slice(mark);
  const backendsOf = (served: Served[]) => [...new Set(served.map((s) => s.backend))].sort();
  const listed = (served: Served[]) => served.map((s) => `${s.backend} ${s.method} ${s.path} ${s.status}`).join('\n');

  test('sign in through one, work through the other, refresh, ban on both at once, the same exports', async ({ browser, browserProblems }) => {
    const [a, b] = portals;
    // The banned member's next call in the browser.
    browserProblems.expectRefusal(403, /^\/api\//);
    const watch = (context: BrowserContext) => browserProblems.watch(context);

    // Migrated and seeded once, though both started on the empty database together.
    const migrations = await database.query<{ name: string; n: number }>('select name, count(*)::int as n from kysely_migration group by name');
    expect(migrations.length).toBeGreaterThan(0);
    expect(migrations.filter((m) => m.n !== 1)).toEqual([]);
    expect(await database.query(`select organization_id from organizations where organization_name = 'Contoso'`)).toHaveLength(1);

    // 1. The supervisor signs in through A alone: the provider's interaction, the form, the code exchange.
    proxy.pin(A);
    let mark = proxy.served.length;
    const page = await throughProxy(browser, watch);
    await signInToCertificates(page, 'supervisor@operator.example');
    expect(backendsOf(servedSince(mark)), listed(servedSince(mark))).toEqual([A]);
    expect(servedSince(mark)).toContainEqual({ backend: A, method: 'POST', path: '/oidc/token', status: 200 });

    // 2. Works through B alone, with the token A's provider issued.
    proxy.pin(B);
    mark = proxy.served.length;
    const supervisor = await apiOf(page);
    const gatewayToken = await supervisor.call<string>('POST', '/api/token', { data: { upn: 'gateway.two-instances', groups: ['piston_export'], expires_in: 1 } });
    // B signed it with the master secret from the file; A, given the same file, takes it too.
    const before = await exportTags(a, gatewayToken);
    expect(await exportTags(b, gatewayToken)).toEqual(before);

    await page.getByRole('combobox', { name: 'Organization' }).click();
    await page.getByRole('option', { name: 'Contoso', exact: true }).click();
    await expect(page.getByRole('combobox', { name: 'Organization' })).toHaveValue('Contoso');
    const contoso = organizationIdOf(page);
    await page.getByLabel('Filter by DN').fill('gw-hamburg');
    await page.getByRole('button', { name: 'Filter', exact: true }).click();
    const hamburg = 'CN=gw-hamburg.contoso.example,OU=Gateways,O=Contoso,C=DE';
    await expect(row(page, 'gw-hamburg')).toContainText('Not approved');
    await row(page, 'gw-hamburg').getByRole('link', { name: hamburg }).click();
    await expect(heading(page, hamburg)).toBeVisible();
    await page.getByRole('button', { name: 'Approve' }).click();
    await expect(toast(page, 'Certificate approved.')).toBeVisible();
    await expect(row(page, 'gw-hamburg')).toContainText('Approved');
    expect(backendsOf(servedSince(mark)), listed(servedSince(mark))).toEqual([B]);
    expect(servedSince(mark)).toContainEqual({ backend: B, method: 'POST', path: expect.stringMatching(/^\/api\/approve\/.*gw-hamburg/), status: 204 });

    // The approval changed the archive: A, which did not make it, serves B's new version, with B's ETag
    // (within the moment PostgreSQL's notification takes; docs/decisions.md "Export cache").
    const after = await exportTags(b, gatewayToken);
    expect(after.certs).not.toBe(before.certs);
    expect(after.routes).toBe(before.routes);
    await expect.poll(() => exportTags(a, gatewayToken), { timeout: 5_000 }).toEqual(after);
    const unchanged = await direct(a, '/api/piston/certs', gatewayToken, { 'if-none-match': after.certs });
    expect(unchanged.status).toBe(304);

    // The refresh: the web app renews when under 5 s remain (lib/stored-user.ts). Told so, its next
    // call renews first, at B, with the refresh token A issued; A accepts the new access token.
    const signedIn = await storedUser(page);
    mark = proxy.served.length;
    await page.evaluate(() => {
      const key = Object.keys(window.localStorage).find((k) => k.startsWith('oidc.user:'))!;
      const user = JSON.parse(window.localStorage.getItem(key)!) as { expires_at: number };
      window.localStorage.setItem(key, JSON.stringify({ ...user, expires_at: Math.floor(Date.now() / 1000) + 2 }));
    });
    await page.reload();
    await expect(row(page, 'gw-hamburg')).toContainText('Approved');
    await expect.poll(() => servedSince(mark).filter((s) => s.path === '/oidc/token')).toEqual([{ backend: B, method: 'POST', path: '/oidc/token', status: 200 }]);
    const renewed = await storedUser(page);
    expect(renewed.access_token).not.toBe(signedIn.access_token);
    expect(renewed.expires_at).toBeGreaterThan(Math.floor(Date.now() / 1000) + 60);
    expect((await direct(a, `/api/organizations/${contoso}`, renewed.access_token)).status).toBe(200);

    // 3. Round robin: a member signs in and the supervisor goes through pages; both instances answer.
    proxy.pin(undefined);
    mark = proxy.served.length;
    const memberPage = await throughProxy(browser, watch);
    await signInToCertificates(memberPage, CONTOSO_MEMBER);
    await expect(row(memberPage, 'gw-hamburg')).toContainText('Approved');
    await sidebarLink(page, 'Members').click();
    await expect(heading(page, 'Members')).toBeVisible();
    await page.getByRole('link', { name: 'Max Member' }).click();
    await expect(heading(page, 'Max Member')).toBeVisible();
    const turns = servedSince(mark);
    expect(backendsOf(turns), listed(turns)).toEqual([A, B]);
    expect(backendsOf(turns.filter((s) => s.path.startsWith('/api/'))), listed(turns)).toEqual([A, B]);

    // The member's token works at both, so both hold the member in their access caches.
    const memberToken = (await storedUser(memberPage)).access_token;
    for (const portal of [a, b, a, b]) expect((await direct(portal, `/api/organizations/${contoso}`, memberToken)).status).toBe(200);

    // 4. The ban, through A: the very next request at either instance is refused.
    proxy.pin(A);
    mark = proxy.served.length;
    await page.getByRole('button', { name: 'Ban', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Ban Max Member' });
    await dialog.getByLabel('Note').fill('E2E: two instances');
    await dialog.getByRole('button', { name: 'Ban', exact: true }).click();
    await expect(toast(page, 'Banned Max Member.')).toBeVisible();
    expect(servedSince(mark).filter((s) => s.method === 'POST')).toEqual([expect.objectContaining({ backend: A, path: expect.stringMatching(/\/members\/[^/]+\/ban$/), status: 200 })]);
    for (const portal of [b, a]) {
      const refused = await direct(portal, `/api/organizations/${contoso}`, memberToken);
      expect(refused.status, portal.url).toBe(403);
      expect(await refused.json()).toMatchObject({ message: 'Your membership is banned.' });
    }
    proxy.pin(undefined);
    await sidebarLink(memberPage, 'Members').click();
    await expect(memberPage).toHaveURL(/\/access-error$/);

    // Nothing went wrong inside either instance.
    for (const portal of portals) expect(portal.lines.filter((l) => l.level >= 50), portal.output()).toEqual([]);
  });
});
