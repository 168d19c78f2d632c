/**
 * Shared steps of the end-to-end specs: the `test` every spec uses (it fails a test on any console
 * error, page error or CSP violation in any page the test opened), signing in through the real
 * provider, the API as a signed-in person, the axe check, locators, and screenshots
 * (SHOTS_DIR=<folder> saves each screen at laptop and phone width).
 */
import fs from 'node:fs';
import path from 'node:path';
import { test as base, expect, type BrowserContext, type ConsoleMessage, type Page } from '@playwright/test';
import axe from 'axe-core';
import { makeCertificate } from '../scripts/make-certificate';

export { expect };

const PASSWORD = 'portal-demo';

/** The master secret e2e/master-secret.setup.ts provides before the specs run. */
export const MASTER_SECRET = 'e2e-master-secret-0123456789';

/**
 * Reports each `securitypolicyviolation` of the page as a console error, so a violation that the
 * browser does not log itself (or logs as a warning) fails the test too.
 */
function reportCspViolations() {
  document.addEventListener('securitypolicyviolation', (event) => {
    console.error(
      `CSP violation: ${event.effectiveDirective} blocked ${event.blockedURI || 'inline'} at ${event.sourceFile}:${event.lineNumber} (${event.sample})`,
    );
  });
}

const FAILED_LOAD = /^Failed to load resource: the server responded with a status of (\d{3})\b/;

/** What the browser said went wrong, per page, in the words it said it. */
class BrowserProblems {
  readonly found: string[] = [];
  private readonly refusals: { status: number; path: RegExp }[] = [];

  /**
   * Declares a refusal the test provokes on purpose (a wrong password, a duplicate name, a stale
   * version, a banned person's next call). Chromium logs every 4xx answer as the console error
   * "Failed to load resource: … status of 409"; there is no bug behind it and nothing in the page to
   * fix: the answer is the point, the app shows it (a toast, the error screen) and the test checks
   * that. Only declared refusals pass: any other 4xx, and every 5xx, fails the test.
   */
  expectRefusal(status: number, path: RegExp) {
    expect(status, 'only refusals (4xx) can be expected').toBeGreaterThanOrEqual(400);
    expect(status, 'only refusals (4xx) can be expected').toBeLessThan(500);
    this.refusals.push({ status, path });
  }

  private expected(message: ConsoleMessage): boolean {
    const status = Number(FAILED_LOAD.exec(message.text())?.[1] ?? 0);
    const where = message.location().url;
    if (!status || !where) return false;
    const path = new URL(where).pathname;
    return this.refusals.some((r) => r.status === status && r.path.test(path));
  }

  async watch(context: BrowserContext): Promise<void> {
    await context.addInitScript(reportCspViolations);
    for (const page of context.pages()) this.watchPage(page);
    context.on('page', (page) => this.watchPage(page));
  }

  private watchPage(page: Page) {
    page.on('console', (message: ConsoleMessage) => {
      if (message.type() !== 'error' || this.expected(message)) return;
      const where = message.location().url;
      this.found.push(`console error on ${page.url()}: ${message.text()}${where ? ` (${where})` : ''}`);
    });
    page.on('pageerror', (error) => this.found.push(`page error on ${page.url()}: ${error.stack ?? error.message}`));
  }
}

interface Fixtures {
  /** Watches every page of the test; the test fails on any console error, page error or CSP violation. */
  browserProblems: BrowserProblems;
  /** A page in a browser context of its own (another person), watched like `page`, closed after the test. */
  newPage: () => Promise<Page>;
}

export const test = base.extend<Fixtures>({
  browserProblems: [
    async ({ context }, use) => {
      const problems = new BrowserProblems();
      await problems.watch(context);
      await use(problems);
      expect(problems.found, 'console errors, page errors and CSP violations in the browser').toEqual([]);
    },
    { auto: true },
  ],
  newPage: async ({ browser, browserProblems }, use) => {
    const contexts: BrowserContext[] = [];
    await use(async () => {
      const context = await browser.newContext();
      contexts.push(context);
      await browserProblems.watch(context);
      return context.newPage();
    });
    for (const context of contexts) await context.close();
  },
});

/** Signs in on the built-in provider's page, as a person would. */
export async function signIn(page: Page, email: string) {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** How long a person may wait for the sign-in: three page loads, a token exchange and the profile. */
export const SIGN_IN_TIMEOUT = 30_000;

/**
 * What a signed-in browser keeps (cookies and localStorage: the OIDC user, profile and organization), per portal
 * origin and person, from the first time each signed in through the provider's form in this run of the suite
 * (one worker, one process). A test that signs the person in again opens the portal with it, as a person does
 * who comes back with the session still there: the app finds the stored user and opens their organization's
 * Certificates, without the provider's form, the token exchange and the landing (Pending Tasks first for staff
 * who settle approvals). A kept access token about to expire is renewed with its refresh token, as the app does
 * (lib/stored-user.ts), so each person goes through the form once in a run however long it takes.
 */
type KeptState = Awaited<ReturnType<BrowserContext['storageState']>>;
const signedIn = new Map<string, KeptState>();
/** What the app keeps of a session in localStorage: the OIDC user, where it is, the profile and the organization. */
const SESSION_ITEM = /^(oidc\.user:|portal\.(oidcUserStore|user|organization)$)/;
/**
 * A kept state is used while its access token has this long to live (15 min): longer than a test may take
 * (playwright.config.ts, 3 min), so the app never renews it itself with the kept refresh token, which would
 * rotate it under the kept state. Below that, it is renewed first.
 */
const KEPT_STATE_MIN_LIFE_S = 5 * 60;

interface StoredUser {
  access_token: string;
  refresh_token?: string;
  id_token?: string;
  expires_at?: number;
  profile: { aud: string | string[] };
}

const userItemOf = (state: KeptState, origin: string) =>
  state.origins.find((o) => o.origin === origin)?.localStorage.find((i) => i.name.startsWith('oidc.user:'));

function accessTokenLife(state: KeptState, origin: string): number {
  const item = userItemOf(state, origin);
  const expiresAt = item ? (JSON.parse(item.value) as StoredUser).expires_at : undefined;
  return expiresAt === undefined ? 0 : expiresAt - Date.now() / 1000;
}

/**
 * The kept state with its tokens renewed at the provider (refresh_token grant, as oidc-client-ts sends it), or
 * undefined when the provider refuses (then the person signs in through the form again).
 */
async function renewed(page: Page, state: KeptState, origin: string): Promise<KeptState | undefined> {
  const item = userItemOf(state, origin);
  const user = item ? (JSON.parse(item.value) as StoredUser) : undefined;
  if (!item || !user?.refresh_token) return undefined;
  // oidc.user:<authority>:<client_id>; the authority is a URL, so the client id is after the last colon.
  const authority = item.name.slice('oidc.user:'.length, item.name.lastIndexOf(':'));
  const clientId = item.name.slice(item.name.lastIndexOf(':') + 1);
  const discovery = await page.request.get(`${authority.replace(/\/$/, '')}/.well-known/openid-configuration`);
  if (!discovery.ok()) return undefined;
  const { token_endpoint: tokenEndpoint } = (await discovery.json()) as { token_endpoint: string };
  const answer = await page.request.post(tokenEndpoint, { form: { grant_type: 'refresh_token', refresh_token: user.refresh_token, client_id: clientId } });
  if (!answer.ok()) return undefined;
  const tokens = (await answer.json()) as { access_token: string; expires_in: number; refresh_token?: string; id_token?: string };
  const value = JSON.stringify({
    ...user,
    access_token: tokens.access_token,
    expires_at: Math.floor(Date.now() / 1000) + tokens.expires_in,
    refresh_token: tokens.refresh_token ?? user.refresh_token,
    id_token: tokens.id_token ?? user.id_token,
  });
  return {
    cookies: state.cookies,
    origins: state.origins.map((o) => (o.origin !== origin ? o : { ...o, localStorage: o.localStorage.map((i) => (i === item ? { ...i, value } : i)) })),
  };
}

/** Opens the person's Certificates with a kept session; false when there is none (or it could not be renewed). */
async function openKeptSession(page: Page, email: string): Promise<boolean> {
  // A same-origin page that is not the app, to learn the origin and write its storage before the app reads it.
  await page.goto('/readyz');
  const origin = new URL(page.url()).origin;
  const key = `${origin} ${email}`;
  let state = signedIn.get(key);
  if (!state) return false;
  if (accessTokenLife(state, origin) < KEPT_STATE_MIN_LIFE_S) {
    state = await renewed(page, state, origin);
    if (!state) {
      signedIn.delete(key);
      return false;
    }
    signedIn.set(key, state);
  }
  await page.context().addCookies(state.cookies);
  // The session only (web/lib/storage.ts KEYS): no preference (page size, colour scheme) of the test that kept it.
  const items = (state.origins.find((o) => o.origin === origin)?.localStorage ?? []).filter((i) => SESSION_ITEM.test(i.name));
  await page.evaluate((entries) => entries.forEach(({ name, value }) => window.localStorage.setItem(name, value)), items);
  // Straight to the organization's Certificates: the landing after a sign-in is the subject of foundation.spec.ts.
  const organizationId = (JSON.parse(items.find((i) => i.name === 'portal.user')?.value ?? 'null') as { organization_id?: string } | null)?.organization_id;
  await page.goto(organizationId ? `/organizations/${organizationId}/certificates` : '/login');
  return true;
}

/**
 * Signs in and waits for the Certificates page of the person's organization: through the provider's form the
 * first time in this run (or with `fresh`, for the tests of the sign-in itself), else with the session kept then.
 */
export async function signInToCertificates(page: Page, email: string, options: { fresh?: boolean } = {}) {
  const kept = !options.fresh && (await openKeptSession(page, email));
  if (!kept) await signIn(page, email);
  // Staff who settle approvals land on Pending Tasks while some wait (issue 34): from there, their Certificates.
  await expect(page).toHaveURL(new RegExp(`${CERTIFICATES_URL.source}|${PENDING_TASKS_URL.source}`), { timeout: SIGN_IN_TIMEOUT });
  if (PENDING_TASKS_URL.test(page.url())) {
    await expect(page.getByRole('heading', { level: 1, name: 'Pending Tasks' })).toBeVisible({ timeout: SIGN_IN_TIMEOUT });
    const profile = await page.evaluate(() => JSON.parse(window.localStorage.getItem('portal.user') ?? 'null') as { organization_id: string } | null);
    await page.goto(`/organizations/${profile!.organization_id}/certificates`);
  }
  await expect(page).toHaveURL(CERTIFICATES_URL, { timeout: SIGN_IN_TIMEOUT });
  await expect(page.getByRole('heading', { level: 1, name: 'Certificates' })).toBeVisible({ timeout: SIGN_IN_TIMEOUT });
  if (!kept && !options.fresh) signedIn.set(`${new URL(page.url()).origin} ${email}`, await page.context().storageState());
}

const CERTIFICATES_URL = /\/organizations\/[^/]+\/certificates$/;
export const PENDING_TASKS_URL = /\/admin\/pending-tasks$/;

/** The access token oidc-client-ts keeps in localStorage under oidc.user:<authority>:<client_id>. */
async function accessTokenOf(page: Page): Promise<string> {
  const token = await page.evaluate(() => {
    const key = Object.keys(window.localStorage).find((k) => k.startsWith('oidc.user:'));
    const user = key ? (JSON.parse(window.localStorage.getItem(key) ?? 'null') as { access_token?: string } | null) : null;
    return user?.access_token ?? '';
  });
  expect(token).not.toBe('');
  return token;
}

export interface Api {
  /** The organization the person landed in. */
  organizationId: string;
  /** Calls the API with the person's token; fails the test unless it answers 2xx. Answers the JSON body (or text). */
  call<T = unknown>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, options?: { data?: unknown; params?: Record<string, string | number> }): Promise<T>;
  /** The id of an organization the person may read, by its name. */
  organizationNamed(name: string): Promise<string>;
}

/**
 * The API as the person signed in on this page, with their access token: for the records a test
 * needs besides what it does on the screens, so that each test makes its own instead of building
 * on another test's.
 */
export async function apiOf(page: Page): Promise<Api> {
  const organizationId = organizationIdOf(page);
  const authorization = `Bearer ${await accessTokenOf(page)}`;
  const call = async <T>(method: string, url: string, options: { data?: unknown; params?: Record<string, string | number> } = {}): Promise<T> => {
    const response = await page.request.fetch(url, { method, headers: { authorization }, data: options.data, params: options.params });
    const text = await response.text();
    expect(response.ok(), `${method} ${url}: ${response.status()} ${text}`).toBe(true);
    return ((response.headers()['content-type'] ?? '').includes('json') ? JSON.parse(text) : text) as T;
  };
  return {
    organizationId,
    call,
    async organizationNamed(name: string) {
      const organizations = await call<{ organization_id: string; organization_name: string }[]>('GET', '/api/organizations', { params: { filter: name, limit: 1000 } });
      const found = organizations.find((o) => o.organization_name === name);
      expect(found, `organization ${name}`).toBeDefined();
      return found!.organization_id;
    },
  };
}

/** The API as another person: signs them in on a page of their own (another browser context). */
export async function apiAs(newPage: () => Promise<Page>, email: string): Promise<Api> {
  const page = await newPage();
  await signInToCertificates(page, email);
  return apiOf(page);
}

/**
 * Waits until the screen has settled: no finite animation or transition still running (a dialog
 * fading in, a toast sliding in) and a frame drawn. Not waited for: spinners (they loop for ever)
 * and a toast's countdown bar (it runs as long as the toast shows).
 */
async function settled(page: Page) {
  await page.waitForFunction(() =>
    document.getAnimations().every((a) => {
      if (a.playState !== 'running' || a.effect?.getComputedTiming().endTime === Infinity) return true;
      const target = a.effect instanceof KeyframeEffect ? a.effect.target : null;
      return !!target?.closest('.Toastify__progress-bar');
    }),
  );
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
}

/** WCAG 2.1 A and AA, and best-practice rules besides: one banner, main and contentinfo, and landmarks
 * told apart by their names (a dialog's Mantine title bar was a <header>, a second banner). */
const ALL_RULES = {
  runOnly: { type: 'tag' as const, values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
  rules: Object.fromEntries(
    ['landmark-no-duplicate-banner', 'landmark-no-duplicate-contentinfo', 'landmark-no-duplicate-main', 'landmark-unique'].map((id) => [id, { enabled: true }]),
  ),
};
/** The rules of those whose outcome depends on the colours: the rest see the same page in either scheme. */
const COLOUR_RULES = { runOnly: { type: 'rule' as const, values: ['color-contrast', 'link-in-text-block'] } };

interface AxeViolation {
  id: string;
  help: string;
  nodes: { target: unknown[] }[];
}
type AxeInPage = { axe?: { run(context: Document, options: unknown): Promise<{ violations: AxeViolation[] }> } };

const summaryOf = (violations: AxeViolation[]) => violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);

/**
 * Runs axe-core in the page, injected once per document: the app moves between screens without loading a new one,
 * so most checks find it there. (@axe-core/playwright injected it anew at every check and finished each run in a
 * new blank page, 1.7 s a check of which 0.2 s was axe's own work; the app has no frames for it to reach into.)
 * Without axe's preload (fetching and parsing every stylesheet, 0.4 s a check): of the rules run, only no-autoplay-audio
 * reads what it loads, about audio and video the app has none of (css-orientation-lock, which reads the stylesheets, is
 * experimental: axe runs it only when asked by name).
 */
async function runAxe(page: Page, options: unknown): Promise<AxeViolation[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axe.source);
  return page.evaluate(
    (options) =>
      (window as unknown as AxeInPage)
        .axe!.run(document, { ...(options as object), resultTypes: ['violations'], preload: false })
        .then((r) => r.violations.map(({ id, help, nodes }) => ({ id, help, nodes: nodes.map(({ target }) => ({ target })) }))),
    options,
  );
}

/** Emulates the system's scheme and waits for the app to follow it (the provider's pages have no attribute). */
async function showScheme(page: Page, colorScheme: 'light' | 'dark') {
  await page.emulateMedia({ colorScheme });
  await page.waitForFunction((scheme) => {
    const shown = document.documentElement.getAttribute('data-mantine-color-scheme');
    return shown === null || shown === scheme;
  }, colorScheme, { timeout: 10_000 });
  await settled(page);
}

/**
 * No axe violations at WCAG 2.1 A/AA (and the landmark rules above) on the screen as it is once
 * settled (colours mid-fade are no screen), in both colour schemes: all rules with the system set
 * to light (Playwright's default, where the test goes on), then the colour rules with it set to
 * dark. The app follows the system while the person has picked no scheme (docs/decisions.md "Dark
 * mode"), so a test that picks one checks the screens before it does; the provider's pages follow the
 * system always.
 */
export async function expectAccessible(page: Page) {
  await showScheme(page, 'light');
  expect(summaryOf(await runAxe(page, ALL_RULES)), 'axe in the light scheme').toEqual([]);
  // Reflow (WCAG 1.4.10): the page itself never scrolls sideways; a wide table scrolls in its own box.
  const widths = await page.evaluate(() => ({ page: document.documentElement.scrollWidth, window: document.documentElement.clientWidth }));
  expect(widths.page, 'the page is no wider than the window').toBeLessThanOrEqual(widths.window);
  await showScheme(page, 'dark');
  const dark = await runAxe(page, COLOUR_RULES);
  await showScheme(page, 'light');
  expect(summaryOf(dark), 'axe in the dark scheme').toEqual([]);
}

/** The id in /organizations/{id}/... of the current URL. */
export function organizationIdOf(page: Page): string {
  return /\/organizations\/([^/]+)/.exec(new URL(page.url()).pathname)?.[1] ?? '';
}

/**
 * The JSON body of the next answer to a GET of the API whose path ends with `path` and whose query holds `query`
 * (each given parameter with that value or matching that pattern, others allowed): start waiting before the click that asks for it. A list
 * keeps showing its previous rows until the new answer arrives (keepPreviousData), while the headers, chips and
 * paging already show the new query, so a read after the click is checked against this answer, never made at once.
 */
export async function answerTo<T>(page: Page, path: string, query: Record<string, string | RegExp> = {}): Promise<T> {
  const response = await page.waitForResponse((r) => {
    const url = new URL(r.url());
    return r.request().method() === 'GET' && url.pathname.startsWith('/api/') && url.pathname.endsWith(path)
      && Object.entries(query).every(([name, value]) => {
        const given = url.searchParams.get(name);
        return typeof value === 'string' ? given === value : given !== null && value.test(given);
      });
  });
  expect(response.ok(), `GET ${response.url()}: ${response.status()}`).toBe(true);
  return (await response.json()) as T;
}

/** A toast (SPEC.md §9) with this text. */
export const toast = (page: Page, text: string | RegExp) => page.getByRole('alert').filter({ hasText: text });

/** Table rows with this text. */
export const row = (page: Page, text: string | RegExp) => page.getByRole('row').filter({ hasText: text });

const SHOTS_DIR = process.env.SHOTS_DIR;
const VIEWPORTS = [
  { name: 'laptop', width: 1280, height: 800 },
  { name: 'phone', width: 390, height: 844 },
] as const;

/**
 * With SHOTS_DIR set: full-page screenshots at laptop and phone width, and the axe check at phone
 * width too; then the viewport as it was. Without it, nothing.
 */
export async function shoot(page: Page, name: string) {
  if (!SHOTS_DIR) return;
  fs.mkdirSync(SHOTS_DIR, { recursive: true });
  const before = page.viewportSize();
  for (const viewport of VIEWPORTS) {
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    await page.evaluate(() => window.scrollTo(0, 0));
    await settled(page);
    await page.screenshot({ path: path.join(SHOTS_DIR, `${name}-${viewport.name}.png`), fullPage: true });
    if (viewport.name === 'phone') await expectAccessible(page);
  }
  if (before) await page.setViewportSize(before);
}

const DAY = 86_400_000;

/**
 * `count` certificates uploaded by this issuer of Contoso, valid from yesterday for `daysValid` days, their CNs
 * sharing a tag of the test's own (`<prefix>-<time>-<random>`): records no other test touches.
 */
export async function uploadContosoCertificates(issuer: Api, count: number, options: { prefix: string; description: string; daysValid: number }) {
  const tag = `${options.prefix}-${Date.now()}-${Math.random().toString(36).slice(2, 6)}`;
  const dns: string[] = [];
  for (let i = 1; i <= count; i++) {
    const { pem } = await makeCertificate({ subject: `O=Contoso, CN=${tag}-${i}.contoso.example`, notBefore: new Date(Date.now() - DAY), notAfter: new Date(Date.now() + options.daysValid * DAY) });
    const uploaded = await issuer.call<{ distinguished_name: string }>('POST', `/api/organizations/${issuer.organizationId}/certificates`, { data: { description: options.description, certificate: pem } });
    dns.push(uploaded.distinguished_name);
  }
  return { tag, dns };
}
