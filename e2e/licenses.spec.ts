/**
 * Licenses end to end (SPEC.md §2 "/licenses", §4 "License", §8 messages): a request by an issuer,
 * its correction and approval by an approver with the license key copied, a renewal through the
 * approval of its successor, 'No renew', a decision on a stale version, and the admin screens.
 * Each test makes the licenses it works on (through the API, as the issuer and the approver
 * would); the seed's licenses are only read. The master secret comes from e2e/master-secret.setup.ts.
 */
import type { Page } from '@playwright/test';
import { formatDate } from '../common/dates';
import type { License } from '../common/schemas/license';
import { answerTo, apiAs, apiOf, expect, expectAccessible, organizationIdOf, shoot, signInToCertificates, test, toast, type Api } from './support';

const DAY = 86_400_000;

const heading = (page: Page, name: string) => page.getByRole('heading', { level: 1, name, exact: true });
const badge = (page: Page, text: string) => page.getByRole('main').getByText(text, { exact: true });

/** A license name no other test uses. */
const uniqueName = (what: string) => `E2E ${what} ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

async function openLicenses(page: Page, organizationId: string) {
  await page.goto(`/organizations/${organizationId}/licenses`);
  await expect(heading(page, 'Licenses')).toBeVisible();
}

/** Filters the list by name and opens the license of exactly that name. */
async function openLicense(page: Page, organizationId: string, name: string) {
  await openLicenses(page, organizationId);
  await page.getByLabel('Filter by name').fill(name);
  await page.getByRole('button', { name: 'Filter', exact: true }).click();
  await expect(page).toHaveURL(/[?&]name=/);
  await page.getByRole('link', { name, exact: true }).click();
  await expect(heading(page, name)).toBeVisible();
}

async function confirm(page: Page, button: string) {
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  await expectAccessible(page);
  await dialog.getByRole('button', { name: button, exact: true }).click();
  await expect(dialog).toBeHidden();
}

/** A LAB license requested through the API (by an issuer, an approver or a supervisor). */
function requestLicense(api: Api, organizationId: string, name: string, fields: { date_valid_from?: string; days_valid?: number } = {}) {
  return api.call<License>('POST', `/api/organizations/${organizationId}/licenses`, { data: { license_name: name, license_scope: 'LAB', ...fields } });
}

const approve = (approver: Api, license: License) =>
  approver.call<License>('POST', `/api/licenses/${license.license_id}/approve`, { data: { version: license.version } });

const renew = (issuer: Api, license: License) =>
  issuer.call<License>('POST', `/api/licenses/${license.license_id}/renew`, { params: { version: license.version } });

/** An approved license whose 20 days ended 10 days ago. */
async function expiredLicense(approver: Api, organizationId: string, name: string): Promise<License> {
  const requested = await requestLicense(approver, organizationId, name, { date_valid_from: new Date(Date.now() - 30 * DAY).toISOString(), days_valid: 20 });
  return approve(approver, requested);
}

test('an issuer requests a license with the defaults of SPEC.md §5', async ({ page, browserProblems }) => {
  // The second request with the same name, below.
  browserProblems.expectRefusal(409, /^\/api\/organizations\/[^/]+\/licenses$/);
  const name = uniqueName('license');
  await signInToCertificates(page, 'issuer@contoso.example');
  const contosoId = organizationIdOf(page);
  await page.getByRole('link', { name: 'Licenses', exact: true }).click();
  await expect(heading(page, 'Licenses')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Contoso Production 2026' })).toBeVisible();
  await expectAccessible(page);

  await page.getByRole('link', { name: 'Request license' }).click();
  await expect(heading(page, 'Request license')).toBeVisible();
  await expect(page.getByRole('combobox', { name: 'Scope' })).toHaveValue('Evaluation');
  await expect(page.getByLabel('Days valid')).toHaveValue('20');
  await expect(page.getByRole('button', { name: 'Valid from' })).toHaveText(formatDate(new Date()));
  await expectAccessible(page);

  // Without a name, and with the days emptied, the request is not sent: each message under its field.
  await page.getByLabel('Days valid').fill('');
  await page.getByRole('button', { name: 'Request license' }).click();
  const licenseName = page.getByLabel('License name');
  await expect(licenseName).toHaveAttribute('aria-invalid', 'true');
  await expect(licenseName).toHaveAccessibleDescription(/a name is required/i);
  await expect(licenseName).toBeFocused();
  await expect(page.getByLabel('Days valid')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByLabel('Days valid')).toHaveAccessibleDescription(/is required/i);
  await expect(heading(page, 'Request license')).toBeVisible();
  await expectAccessible(page);
  await page.getByLabel('Days valid').fill('20');

  await page.getByLabel('License name').fill(name);
  await page.getByRole('combobox', { name: 'Scope' }).click();
  await page.getByRole('option', { name: 'Lab' }).click();
  await page.getByLabel('Note').fill('Requested by the end-to-end test.');
  await page.getByRole('button', { name: 'Request license' }).click();

  await expect(page.getByText(`License ${name} requested.`)).toBeVisible();
  await expect(heading(page, name)).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/organizations/${contosoId}/licenses/[^/]+$`));
  await expect(badge(page, 'Not approved')).toBeVisible();
  // An issuer may request but neither approve nor reject; the fields stay read-only for them.
  await expect(page.getByRole('button', { name: 'Approve' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Reject' })).toHaveCount(0);
  await expect(page.getByLabel('Days valid')).toHaveCount(0);
  await expect(page.getByText('The license key is shown here once the license is approved.')).toBeVisible();
  await expectAccessible(page);

  // A second request with the same name (any case) is refused with the server's message, under the
  // name (a 409 about one field, like a 400); the form stays.
  await page.goto(`/organizations/${contosoId}/licenses/new`);
  await page.getByLabel('License name').fill(name.toUpperCase());
  await page.getByRole('button', { name: 'Request license' }).click();
  await expect(page.getByText(/already exists/)).toBeVisible();
  await expect(page.getByLabel('License name')).toHaveAccessibleDescription(/already exists\. License names are unique/);
  await expect(toast(page, /already exists/)).toHaveCount(0);
  await expect(heading(page, 'Request license')).toBeVisible();
});

test('an approver corrects the days, approves, and copies the license key', async ({ page, context }) => {
  const name = uniqueName('license');
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await signInToCertificates(page, 'approver@operator.example');
  const approver = await apiOf(page);
  const contosoId = await approver.organizationNamed('Contoso');
  const requested = await requestLicense(approver, contosoId, name);

  await page.getByRole('combobox', { name: 'Organization' }).click();
  await page.getByRole('option', { name: 'Contoso' }).click();
  await expect(page).toHaveURL(new RegExp(`/organizations/${contosoId}/certificates$`));
  await openLicense(page, contosoId, name);
  expect(new URL(page.url()).pathname).toBe(`/organizations/${contosoId}/licenses/${requested.license_id}`);

  await expect(badge(page, 'Not approved')).toBeVisible();
  await expect(page.getByLabel('License name')).toHaveValue(name);
  await expect(page.getByLabel('Days valid')).toHaveValue('20');
  await expectAccessible(page);
  await page.getByLabel('Days valid').fill('30');
  await page.getByRole('button', { name: 'Approve' }).click();

  await expect(page.getByText(`License ${name} approved.`)).toBeVisible();
  await expect(badge(page, 'Valid')).toBeVisible();
  // Read-only once approved: the facts show the corrected window.
  await expect(page.getByLabel('Days valid')).toHaveCount(0);
  const facts = page.getByRole('region', { name: 'License details' });
  await expect(facts.getByText('30', { exact: true })).toBeVisible();
  await expect(facts.getByText('Lab', { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Approve' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Reject' })).toHaveCount(0);

  const keyPanel = page.getByRole('region', { name: 'License key' });
  const key = keyPanel.locator('pre');
  await expect(key).toHaveText(/^CPL1\.[\w-]+\.[\w-]+$/);
  await keyPanel.getByRole('button', { name: 'Copy license key' }).click();
  await expect(page.getByText('Copied license key to clipboard')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(await key.textContent());
  await expectAccessible(page);

  // The list shows it Valid with the days left (in 30 days, or 29 when the day nearly ended).
  await openLicenses(page, contosoId);
  const row = page.getByRole('row').filter({ has: page.getByRole('link', { name, exact: true }) });
  await expect(row).toContainText('Valid');
  await expect(row).toContainText('lab');
  await expect(row).toContainText(/in (29|30) days/);
});

test('the list filters by name and by the three toggles, in the URL', async ({ page }) => {
  // The seed's licenses of Contoso, read only.
  await signInToCertificates(page, 'issuer@contoso.example');
  const contosoId = organizationIdOf(page);
  await openLicenses(page, contosoId);
  const expired = page.getByRole('link', { name: 'Contoso Lab 2025', exact: true });
  await expect(expired).toBeVisible();

  const hideExpired = page.getByRole('button', { name: 'Hide expired' });
  await expect(hideExpired).toHaveAttribute('aria-pressed', 'false');
  await hideExpired.click();
  await expect(hideExpired).toHaveAttribute('aria-pressed', 'true');
  await expect(page).toHaveURL(/hideExpired=true/);
  await expect(expired).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Contoso Production 2026' })).toBeVisible();

  await page.getByRole('button', { name: 'Hide valid' }).click();
  await expect(page.getByRole('link', { name: 'Contoso Production 2026' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Hide requests' }).click();
  await expect(page.getByRole('link', { name: 'Contoso Lab Evaluation' })).toHaveCount(0);
  // Approved ahead of its start: neither expired, nor valid, nor a request.
  await expect(page.getByRole('link', { name: 'Contoso Production Berlin' })).toBeVisible();
  await expectAccessible(page);

  // A reload keeps the filters.
  await page.reload();
  await expect(page.getByRole('button', { name: 'Hide valid' })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByRole('link', { name: 'Contoso Production Berlin' })).toBeVisible();

  await page.getByLabel('Filter by name').fill('no such license');
  await page.getByRole('button', { name: 'Filter', exact: true }).click();
  await expect(page.getByText('No licenses found.')).toBeVisible();
});

test('an issuer renews an expired license: the original shows Extension requested', async ({ page, newPage }) => {
  const name = uniqueName('expired');
  await signInToCertificates(page, 'issuer@contoso.example');
  const contosoId = organizationIdOf(page);
  await expiredLicense(await apiAs(newPage, 'approver@operator.example'), contosoId, name);

  await openLicense(page, contosoId, name);
  await expect(badge(page, 'Expired')).toBeVisible();
  await expect(page.getByRole('region', { name: 'License key' }).locator('pre')).toHaveText(/^CPL1\./);
  await page.getByRole('button', { name: 'Renew', exact: true }).click();

  await expect(page.getByText(`Renewal ${name} (renewal 1) requested; it waits for approval.`)).toBeVisible();
  await expect(badge(page, 'Extension requested')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Renew', exact: true })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'No renew' })).toHaveCount(0);
  await expect(page.getByRole('link', { name: `${name} (renewal 1)` })).toBeVisible();
  await expectAccessible(page);
});

test('an approver approves the successor: the original shows Extended', async ({ page, newPage }) => {
  const name = uniqueName('expired');
  await signInToCertificates(page, 'approver@operator.example');
  const approver = await apiOf(page);
  const contosoId = await approver.organizationNamed('Contoso');
  const expired = await expiredLicense(approver, contosoId, name);
  const successor = await renew(await apiAs(newPage, 'issuer@contoso.example'), expired);
  expect(successor.license_name).toBe(`${name} (renewal 1)`);

  await openLicense(page, contosoId, name);
  await expect(badge(page, 'Extension requested')).toBeVisible();
  await page.getByRole('link', { name: successor.license_name }).click();
  await expect(heading(page, successor.license_name)).toBeVisible();
  await expect(page.getByLabel('Note')).toHaveValue(`Renewal of ${name}.`);
  await page.getByRole('button', { name: 'Approve' }).click();
  await expect(page.getByText(`License ${successor.license_name} approved.`)).toBeVisible();
  await expect(badge(page, 'Valid')).toBeVisible();

  await page.goBack();
  await expect(heading(page, name)).toBeVisible();
  await expect(badge(page, 'Extended')).toBeVisible();
  await expect(badge(page, 'Extension requested')).toHaveCount(0);
  await expectAccessible(page);
});

test("'No renew' after the renewal was rejected: Expiry acknowledged", async ({ page, newPage }) => {
  const name = uniqueName('expired');
  await signInToCertificates(page, 'approver@operator.example');
  const approver = await apiOf(page);
  const contosoId = await approver.organizationNamed('Contoso');
  const expired = await expiredLicense(approver, contosoId, name);
  const successor = await renew(await apiAs(newPage, 'issuer@contoso.example'), expired);

  // Rejecting the renewal opens the original again.
  await openLicense(page, contosoId, successor.license_name);
  await page.getByRole('button', { name: 'Reject' }).click();
  await confirm(page, 'Reject');
  await expect(badge(page, 'Rejected')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Approve' })).toHaveCount(0);
  await expect(page.getByRole('region', { name: 'License key' })).toHaveCount(0);

  await openLicense(page, contosoId, name);
  await expect(badge(page, 'Expired')).toBeVisible();
  await expect(badge(page, 'Extension requested')).toHaveCount(0);
  // An approver may acknowledge, but renewing is for supervisors and issuers.
  await expect(page.getByRole('button', { name: 'Renew', exact: true })).toHaveCount(0);
  await page.getByRole('button', { name: 'No renew' }).click();
  await confirm(page, 'No renew');
  await expect(badge(page, 'Expiry acknowledged')).toBeVisible();
  await expect(page.getByRole('button', { name: 'No renew' })).toHaveCount(0);
  await expectAccessible(page);
});

test('a decision on a stale version is refused, and the screen shows the current license', async ({ page, context, browserProblems }) => {
  browserProblems.expectRefusal(409, /^\/api\/licenses\/[^/]+\/approve$/);
  const name = uniqueName('request');
  await signInToCertificates(page, 'approver@operator.example');
  const approver = await apiOf(page);
  const requested = await requestLicense(approver, await approver.organizationNamed('Northwind Networks'), name);
  await page.goto(`/organizations/${requested.organization_id}/licenses/${requested.license_id}`);
  await expect(heading(page, name)).toBeVisible();
  await expect(badge(page, 'Not approved')).toBeVisible();

  // Meanwhile, in another tab, the request is rejected.
  const other = await context.newPage();
  await other.goto(page.url());
  await expect(heading(other, name)).toBeVisible();
  await other.getByRole('button', { name: 'Reject' }).click();
  await confirm(other, 'Reject');
  await expect(badge(other, 'Rejected')).toBeVisible();
  await other.close();

  // The first tab still shows the old version: approving it is refused with the server's message.
  await page.getByLabel('Days valid').fill('25');
  await page.getByRole('button', { name: 'Approve' }).click();
  await expect(page.getByText(/changed meanwhile/)).toBeVisible();
  await expect(badge(page, 'Rejected')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Approve' })).toHaveCount(0);
  await expect(page.getByRole('region', { name: 'License details' }).getByText('20', { exact: true })).toBeVisible();
});

test('an open license turns Expired at its valid-until, without a reload', async ({ page }) => {
  await signInToCertificates(page, 'approver@operator.example');
  const approver = await apiOf(page);
  const contosoId = await approver.organizationNamed('Contoso');
  // One day of 24 h that ends 12 seconds from now: time to open it (2–4 s with the machine busy) and watch.
  const until = Date.now() + 12_000;
  const requested = await requestLicense(approver, contosoId, uniqueName('ending'), { date_valid_from: new Date(until - DAY).toISOString(), days_valid: 1 });
  const license = await approve(approver, requested);
  expect(Date.parse(license.date_valid_until)).toBe(until);

  await page.goto(`/organizations/${contosoId}/licenses/${license.license_id}`);
  await expect(badge(page, 'Valid')).toBeVisible();
  await expect(page.getByRole('button', { name: 'No renew' })).toHaveCount(0);
  // What a person sees when the moment comes: the badge and the actions change by themselves.
  await expect(badge(page, 'Expired')).toBeVisible({ timeout: until - Date.now() + 10_000 });
  await expect(badge(page, 'Valid')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'No renew' })).toBeVisible();
  expect(Date.now()).toBeGreaterThanOrEqual(until);
});

test('admin: licenses across organizations and the pending tasks', async ({ page }) => {
  await signInToCertificates(page, 'supervisor@operator.example');
  // This test's own: a request, an approved and a rejected one, an expired one and one let go.
  const supervisor = await apiOf(page);
  const contosoId = await supervisor.organizationNamed('Contoso');
  const pending = await requestLicense(supervisor, contosoId, uniqueName('pending'));
  const approved = await approve(supervisor, await requestLicense(supervisor, contosoId, uniqueName('approved')));
  const rejected = await requestLicense(supervisor, contosoId, uniqueName('rejected'));
  await supervisor.call('POST', `/api/licenses/${rejected.license_id}/reject`, { params: { version: rejected.version } });
  const expired = await expiredLicense(supervisor, contosoId, uniqueName('expired'));
  const letGo = await expiredLicense(supervisor, contosoId, uniqueName('let go'));
  await supervisor.call('POST', `/api/licenses/${letGo.license_id}/acknowledge-expiry`, { params: { version: letGo.version } });

  await page.goto('/admin/licenses');
  await expect(heading(page, 'Licenses')).toBeVisible();
  await expect(page.getByRole('columnheader', { name: 'Organization' })).toBeVisible();
  const northwind = page.getByRole('row').filter({ has: page.getByRole('link', { name: 'Northwind Lab 2024', exact: true }) });
  await expect(northwind).toContainText('Northwind Networks');
  await expect(northwind).toContainText('Expiry acknowledged');
  await expectAccessible(page);

  // Phones: the table scrolls inside its container, the page itself does not.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByRole('link', { name: 'Northwind Lab 2024', exact: true })).toBeAttached();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await page.setViewportSize({ width: 1280, height: 800 });

  await page.getByRole('link', { name: 'Northwind Lab 2024', exact: true }).click();
  await expect(heading(page, 'Northwind Lab 2024')).toBeVisible();
  await expect(page).toHaveURL(/\/organizations\/[^/]+\/licenses\/[^/]+$/);

  await page.goto('/admin/pending-tasks');
  await expect(heading(page, 'Pending Tasks')).toBeVisible();
  const approvals = page.getByRole('region', { name: 'Pending approvals' });
  await expect(approvals.getByRole('link', { name: pending.license_name })).toBeVisible();
  // Approved and rejected requests are no longer pending.
  await expect(approvals.getByRole('link', { name: approved.license_name })).toHaveCount(0);
  await expect(approvals.getByRole('link', { name: rejected.license_name })).toHaveCount(0);
  // Expired and neither renewed nor let go: waiting for a decision.
  const expiredTasks = page.getByRole('region', { name: 'Expired resources' });
  await expect(expiredTasks.getByRole('link', { name: expired.license_name })).toBeVisible();
  await expect(expiredTasks.getByRole('link', { name: letGo.license_name })).toHaveCount(0);
  await expectAccessible(page);

  await approvals.getByRole('link', { name: pending.license_name }).click();
  await expect(heading(page, pending.license_name)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Approve' })).toBeVisible();
});

test('admin: the pending tasks page through more license requests than one page holds', async ({ page }) => {
  await signInToCertificates(page, 'supervisor@operator.example');
  const supervisor = await apiOf(page);
  // An organization of this test's own, so that its 105 requests are in nobody else's lists.
  const organization = await supervisor.call<{ organization_id: string }>('POST', '/api/organizations', { data: { organization_name: uniqueName('Paging Customer') } });
  const prefix = uniqueName('paging');
  const requested: License[] = [];
  for (let i = 0; i < 105; i += 15) {
    const batch = Array.from({ length: Math.min(15, 105 - i) }, (_, k) => requestLicense(supervisor, organization.organization_id, `${prefix} ${String(i + k).padStart(3, '0')}`));
    requested.push(...(await Promise.all(batch)));
  }
  const newest = requested.reduce((a, b) => (b.date_created > a.date_created ? b : a));

  try {
    // The true totals, as the API counts them now (specs run one at a time: nothing else adds any meanwhile).
    const totals = await supervisor.call<{ certificates_total: number; licenses_total: number }>('GET', '/api/approve', { params: { limit: 1 } });
    const total = totals.licenses_total;
    expect(total).toBeGreaterThan(100);
    const pages = Math.ceil(total / 100);
    const count = (n: number) => n.toLocaleString('en-US');

    await page.goto('/admin/pending-tasks');
    await expect(heading(page, 'Pending Tasks')).toBeVisible();
    const approvals = page.getByRole('region', { name: 'Pending approvals' });
    const licenses = approvals.getByRole('region', { name: `Licenses (${count(total)})` });
    const certificates = approvals.getByRole('region', { name: `Certificates (${count(totals.certificates_total)})` });
    await expect(licenses).toBeVisible();
    await expect(certificates).toBeVisible();
    await expect(licenses.getByText(`Showing license approvals 1–100 of ${total}`)).toBeVisible();
    const links = licenses.getByRole('table').getByRole('link');
    await expect(links).toHaveCount(100);
    const first = await links.allTextContents();
    await expectAccessible(page);

    // The next page: the rows after these, none of them again; the certificates stay where they were.
    const pager = licenses.getByRole('navigation', { name: 'Pages of license approvals' });
    // The pager and its summary follow the URL at once; the rows are page 1's until page 2's answer arrives.
    const page2 = answerTo<{ licenses: Array<{ license_name: string }> }>(page, '/api/approve', { licensesOffset: '100' });
    await pager.getByRole('button', { name: 'Page 2', exact: true }).click();
    await expect(page).toHaveURL(/[?&]approveLicensesPage=2\b/);
    await expect(licenses.getByText(`Showing license approvals 101–${Math.min(200, total)} of ${total}`)).toBeVisible();
    const second = (await page2).licenses.map((l) => l.license_name);
    expect(second).toHaveLength(Math.min(100, total - 100));
    await expect(links).toHaveText(second);
    expect(second.filter((name) => first.includes(name))).toEqual([]);
    await expect(certificates.getByText(new RegExp(`^Showing certificate approvals 1–\\d+ of ${totals.certificates_total}$`))).toBeVisible();

    // The last page holds the newest request (oldest first); a reload keeps the page, Back goes to page 1.
    if (pages > 2) await pager.getByRole('button', { name: `Page ${pages}`, exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`[?&]approveLicensesPage=${pages}\\b`));
    await expect(licenses.getByRole('link', { name: newest.license_name, exact: true })).toBeVisible();
    await page.reload();
    await expect(licenses.getByRole('link', { name: newest.license_name, exact: true })).toBeVisible();
    await shoot(page, 'pending-tasks');
    for (let back = pages > 2 ? 2 : 1; back > 0; back--) await page.goBack();
    await expect(licenses.getByText(`Showing license approvals 1–100 of ${total}`)).toBeVisible();
    expect(await links.allTextContents()).toEqual(first);

    // The same links as before: a row opens the license, where the task is done.
    await pager.getByRole('button', { name: `Page ${pages}`, exact: true }).click();
    await licenses.getByRole('link', { name: newest.license_name, exact: true }).click();
    await expect(heading(page, newest.license_name)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Approve' })).toBeVisible();
  } finally {
    // Decided, they wait no more: later specs see the pending tasks as they were.
    for (const license of requested) await supervisor.call('POST', `/api/licenses/${license.license_id}/reject`, { params: { version: license.version } });
  }
});
