/**
 * A person at the portal while others write (issue 29, "Done when"): the operator's supervisor signs in through the
 * built-in provider's form in Chromium and opens, by the web app's own navigation, the admin screens, the large
 * organization's and a small one's overview, lists and journal, and the notices, twice in turn (the first visit and
 * a return), while the writer of (b) makes 10 writes per second. Per screen: the time from the navigation to the
 * last API answer it asked for (its content is then on the screen), how many it asked for and the slowest.
 *
 * The data set has no sign-in accounts (dataset.ts): the supervisor gets one with a password of this run only.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Request } from '@playwright/test';
import { buildWeb } from '../build.mjs';
import { sourcesHash, stampOf } from '../build-stamp.mjs';
import { ROOT } from './config';
import { hashPassword } from '../../server/auth/idp/passwords';
import type { PreparedDatabase } from './database';
import type { Stage } from './loaded';
import type { Organization } from './people';
import { describeWriter, openLoopWriter, type WriterReport } from './writer';
import type { Writes } from './writes';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const EMAIL = 'supervisor@operator.example';
/** A screen is done when what it asked for has come and nothing more is asked for this long. */
const QUIET_MS = 400;
const SCREEN_TIMEOUT_MS = 20_000;

interface ScreenVisit {
  screen: string;
  /** 1: the first visit, 2: the return. */
  visit: number;
  /** From the navigation to the last answer; 0 when the web app showed what it had without asking. */
  ms: number;
  answers: number;
  slowest: { path: string; ms: number } | null;
  /** Answers other than 2xx and 304, and requests that failed. */
  failures: string[];
}

export interface BrowseRun {
  visits: ScreenVisit[];
  writer: WriterReport;
  consoleErrors: string[];
}

/** The web app the portal serves (dist/web), built first when it is missing or older than its sources, as `npm start` does. */
export async function ensureWebApp(log: (line: string) => void): Promise<void> {
  const dir = path.join(ROOT, 'dist/web');
  if (fs.existsSync(path.join(dir, 'index.html')) && stampOf(dir) === sourcesHash(ROOT, 'web')) return;
  log('Building the web app for the browsing person (dist/web is missing or older than its sources)');
  await buildWeb();
}

function screensOf(large: string, small: string): Array<[string, string]> {
  const of = (name: string, id: string) => (screen: string, path: string): [string, string] => [`${name}: ${screen}`, `/organizations/${id}/${path}`];
  const big = of('large organization', large);
  const other = of('small organization', small);
  return [
    ['admin: pending tasks', '/admin/pending-tasks'], ['admin: overview', '/admin/overview'], ['admin: organizations', '/admin/organizations'],
    ['admin: certificates', '/admin/certificates'], ['admin: licenses', '/admin/licenses'], ['admin: members', '/admin/members'],
    ['admin: access review', '/admin/access-review'],
    big('overview', 'overview'), big('certificates', 'certificates'), big('licenses', 'licenses'), big('members', 'members'), big('journal', 'auditrecords'),
    other('overview', 'overview'), other('certificates', 'certificates'), other('journal', 'auditrecords'),
    ['notices', '/notices'],
  ];
}

export async function runBrowse(stage: Stage, database: PreparedDatabase, writes: Writes, organizations: Organization[]): Promise<BrowseRun> {
  const url = stage.portal.current.url;
  const password = randomBytes(12).toString('base64url');
  await database.execute(
    `insert into accounts (account_id, email, password_hash, name, given_name, family_name, email_verified, date_created)
     values ($1, $2, $3, 'Sam Supervisor', 'Sam', 'Supervisor', 1, $4)`,
    [randomUUID(), EMAIL, await hashPassword(password), new Date().toISOString()],
  );
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] });
  try {
    const page = await browser.newPage({ viewport: { width: 1366, height: 800 } });
    const consoleErrors: string[] = [];
    page.on('console', (m) => m.type() === 'error' && consoleErrors.push(m.text()));
    // Every API request: when it was sent (this process's clock), and when and how it was answered.
    const requests = new Map<Request, { sent: number; answered?: number; status?: number; ms?: number }>();
    const isApi = (r: Request) => r.url().startsWith(`${url}/api/`);
    page.on('request', (r) => isApi(r) && requests.set(r, { sent: performance.now() }));
    const answered = (r: Request, status: number) => {
      const seen = requests.get(r);
      if (!seen) return;
      const t = r.timing();
      Object.assign(seen, { answered: performance.now(), status, ms: t.responseEnd > 0 ? t.responseEnd - t.requestStart : undefined });
    };
    page.on('requestfinished', async (r) => answered(r, (await r.response())?.status() ?? 0));
    page.on('requestfailed', (r) => answered(r, 0));

    await page.goto(`${url}/login`);
    await page.getByLabel('Email').fill(EMAIL);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    // Signed in: the app's screens (staff land on Pending Tasks), no longer the provider's or the callback.
    await page.waitForURL((u) => /^\/(admin|organizations)\//.test(u.pathname), { timeout: 60_000 });

    const writer = openLoopWriter(writes, organizations.slice(1), 10);
    writer.start();
    const visits: ScreenVisit[] = [];
    for (const visit of [1, 2]) {
      for (const [screen, path] of screensOf(organizations[0].id, organizations[1].id)) {
        const started = performance.now();
        // What a click on one of the app's links does: the router follows the history (no page load).
        await page.evaluate((to) => {
          window.history.pushState({}, '', to);
          window.dispatchEvent(new PopStateEvent('popstate'));
        }, path);
        let mine: Array<{ request: Request; sent: number; answered?: number; status?: number; ms?: number }> = [];
        let quietSince = performance.now();
        while (performance.now() - started < SCREEN_TIMEOUT_MS) {
          await page.waitForTimeout(20);
          mine = [...requests].filter(([, r]) => r.sent >= started).map(([request, r]) => ({ request, ...r }));
          if (mine.some((r) => r.answered === undefined)) quietSince = performance.now();
          else if (performance.now() - quietSince >= QUIET_MS) break;
        }
        const last = Math.max(started, ...mine.map((r) => r.answered ?? performance.now()));
        const slowest = mine.reduce<ScreenVisit['slowest']>((s, r) => (r.ms !== undefined && (!s || r.ms > s.ms) ? { path: new URL(r.request.url()).pathname, ms: r.ms } : s), null);
        const failures = mine.filter((r) => !r.status || (r.status >= 300 && r.status !== 304)).map((r) => `${r.status ?? 'no answer'} ${new URL(r.request.url()).pathname}`);
        visits.push({ screen, visit, ms: last - started, answers: mine.length, slowest, failures });
        stage.log(`    ${visit === 1 ? 'first' : 'again'} ${screen}: ${(last - started).toFixed(0)} ms, ${mine.length} answers${slowest ? `, slowest ${slowest.ms.toFixed(0)} ms ${slowest.path}` : ''}${failures.length ? `, failed: ${failures.join(', ')}` : ''}`);
      }
    }
    const report = await writer.stop();
    stage.log(describeWriter(report));
    return { visits, writer: report, consoleErrors };
  } finally {
    await browser.close();
  }
}
