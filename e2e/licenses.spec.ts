/**
 * Licenses end to end (SPEC.md §2 "/licenses", §4 "License", §8 messages): the master secret, a
 * request by an issuer, its correction and approval by an approver with the license key copied,
 * a renewal through the approval of its successor, 'No renew', and the admin screens. The steps
 * build on each other (one license moves through its states), so they run in order.
 */
import { expect, test, type Page } from '@playwright/test';
import { formatDate } from '../common/dates';
import { MASTER_SECRET, expectAccessible, organizationIdOf, signInToCertificates } from './support';

test.describe.configure({ mode: 'serial' });

/** The value every spec provides, so whichever runs first sets it for all. */
const LICENSE_NAME = `E2E license ${Date.now()}`;

let contosoId = '';
let licensePath = '';

const heading = (page: Page, name: string) => page.getByRole('heading', { level: 1, name, exact: true });
const badge = (page: Page, text: string) => page.getByRole('main').getByText(text, { exact: true });

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

test('devops provides the master secret (or finds it provided)', async ({ page }) => {
  await signInToCertificates(page, 'devops@operator.example');
  await page.goto('/admin/secret');
  await expect(heading(page, 'Provide Secret')).toBeVisible();
  const provided = page.getByText('Secret already provided!');
  const missing = page.getByText('Secret not yet provided!');
  await expect(provided.or(missing)).toBeVisible();
  await expectAccessible(page);

  if (await missing.isVisible()) {
    await page.getByLabel('Master secret').fill(MASTER_SECRET);
    await page.getByRole('button', { name: 'Provide secret' }).click();
    await expect(page.getByText('successful set')).toBeVisible();
  }
  await expect(provided).toBeVisible();
  await expect(page.getByRole('button', { name: 'Provide secret' })).toBeDisabled();
  await expectAccessible(page);
});

test('an issuer requests a license with the defaults of SPEC.md §5', async ({ page }) => {
  await signInToCertificates(page, 'issuer@contoso.example');
  contosoId = organizationIdOf(page);
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

  await page.getByLabel('License name').fill(LICENSE_NAME);
  await page.getByRole('combobox', { name: 'Scope' }).click();
  await page.getByRole('option', { name: 'Lab' }).click();
  await page.getByLabel('Note').fill('Requested by the end-to-end test.');
  await page.getByRole('button', { name: 'Request license' }).click();

  await expect(page.getByText(`License ${LICENSE_NAME} requested.`)).toBeVisible();
  await expect(heading(page, LICENSE_NAME)).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/organizations/${contosoId}/licenses/[^/]+$`));
  licensePath = new URL(page.url()).pathname;
  await expect(badge(page, 'Not approved')).toBeVisible();
  // An issuer may request but neither approve nor reject; the fields stay read-only for them.
  await expect(page.getByRole('button', { name: 'Approve' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Reject' })).toHaveCount(0);
  await expect(page.getByLabel('Days valid')).toHaveCount(0);
  await expect(page.getByText('The license key is shown here once the license is approved.')).toBeVisible();
  await expectAccessible(page);

  // A second request with the same name (any case) is refused with the server's message; the form stays.
  await page.goto(`/organizations/${contosoId}/licenses/new`);
  await page.getByLabel('License name').fill(LICENSE_NAME.toUpperCase());
  await page.getByRole('button', { name: 'Request license' }).click();
  await expect(page.getByText(/already exists/)).toBeVisible();
  await expect(heading(page, 'Request license')).toBeVisible();
});

test('an approver corrects the days, approves, and copies the license key', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await signInToCertificates(page, 'approver@operator.example');
  await page.getByRole('combobox', { name: 'Organization' }).click();
  await page.getByRole('option', { name: 'Contoso' }).click();
  await expect(page).toHaveURL(new RegExp(`/organizations/${contosoId}/certificates$`));
  await openLicense(page, contosoId, LICENSE_NAME);
  expect(new URL(page.url()).pathname).toBe(licensePath);

  await expect(badge(page, 'Not approved')).toBeVisible();
  await expect(page.getByLabel('License name')).toHaveValue(LICENSE_NAME);
  await expect(page.getByLabel('Days valid')).toHaveValue('20');
  await expectAccessible(page);
  await page.getByLabel('Days valid').fill('30');
  await page.getByRole('button', { name: 'Approve' }).click();

  await expect(page.getByText(`License ${LICENSE_NAME} approved.`)).toBeVisible();
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
  const row = page.getByRole('row').filter({ has: page.getByRole('link', { name: LICENSE_NAME, exact: true }) });
  await expect(row).toContainText('Valid');
  await expect(row).toContainText('lab');
  await expect(row).toContainText(/in (29|30) days/);
});

test('the list filters by name and by the three toggles, in the URL', async ({ page }) => {
  await signInToCertificates(page, 'issuer@contoso.example');
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

test('an issuer renews an expired license: the original shows Extension requested', async ({ page }) => {
  await signInToCertificates(page, 'issuer@contoso.example');
  await openLicense(page, contosoId, 'Contoso Lab 2025');
  await expect(badge(page, 'Expired')).toBeVisible();
  await expect(page.getByRole('region', { name: 'License key' }).locator('pre')).toHaveText(/^CPL1\./);
  await page.getByRole('button', { name: 'Renew', exact: true }).click();

  await expect(page.getByText('Renewal Contoso Lab 2025 (renewal 2) requested; it waits for approval.')).toBeVisible();
  await expect(badge(page, 'Extension requested')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Renew', exact: true })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'No renew' })).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Contoso Lab 2025 (renewal 2)' })).toBeVisible();
  await expectAccessible(page);
});

test('an approver approves the successor: the original shows Extended', async ({ page }) => {
  await signInToCertificates(page, 'approver@operator.example');
  await openLicense(page, contosoId, 'Contoso Lab 2025');
  await expect(badge(page, 'Extension requested')).toBeVisible();
  await page.getByRole('link', { name: 'Contoso Lab 2025 (renewal 2)' }).click();
  await expect(heading(page, 'Contoso Lab 2025 (renewal 2)')).toBeVisible();
  await expect(page.getByLabel('Note')).toHaveValue('Renewal of Contoso Lab 2025.');
  await page.getByRole('button', { name: 'Approve' }).click();
  await expect(badge(page, 'Valid')).toBeVisible();

  await page.goBack();
  await expect(heading(page, 'Contoso Lab 2025')).toBeVisible();
  await expect(badge(page, 'Extended')).toBeVisible();
  await expect(badge(page, 'Extension requested')).toHaveCount(0);
  await expectAccessible(page);
});

test("'No renew' after the renewal was rejected: Expiry acknowledged", async ({ page }) => {
  await signInToCertificates(page, 'approver@operator.example');
  // The seed's Contoso Test 2025 waits for its renewal; rejecting the renewal opens it again.
  await openLicense(page, contosoId, 'Contoso Test 2025 (renewal 2)');
  await page.getByRole('button', { name: 'Reject' }).click();
  await confirm(page, 'Reject');
  await expect(badge(page, 'Rejected')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Approve' })).toHaveCount(0);
  await expect(page.getByRole('region', { name: 'License key' })).toHaveCount(0);

  await openLicense(page, contosoId, 'Contoso Test 2025');
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

test('a decision on a stale version is refused, and the screen shows the current license', async ({ page, context }) => {
  await signInToCertificates(page, 'approver@operator.example');
  await page.goto('/admin/licenses');
  await page.getByRole('link', { name: 'Northwind Evaluation', exact: true }).click();
  await expect(heading(page, 'Northwind Evaluation')).toBeVisible();
  await expect(badge(page, 'Not approved')).toBeVisible();

  // Meanwhile, in another tab, the request is rejected.
  const other = await context.newPage();
  await other.goto(page.url());
  await expect(heading(other, 'Northwind Evaluation')).toBeVisible();
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

test('admin: licenses across organizations and the pending tasks', async ({ page }) => {
  await signInToCertificates(page, 'supervisor@operator.example');
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
  await expect(approvals.getByRole('link', { name: 'Contoso Lab Evaluation' })).toBeVisible();
  // Approved and rejected requests are no longer pending.
  await expect(approvals.getByRole('link', { name: LICENSE_NAME })).toHaveCount(0);
  await expect(approvals.getByRole('link', { name: 'Contoso Test 2025 (renewal 2)' })).toHaveCount(0);
  const expired = page.getByRole('region', { name: 'Expired resources' });
  await expect(expired.getByText('No expired resources.').or(expired.getByRole('table'))).toBeVisible();
  await expect(expired.getByRole('link', { name: 'Contoso Test 2025', exact: true })).toHaveCount(0);
  await expectAccessible(page);

  await approvals.getByRole('link', { name: 'Contoso Lab Evaluation' }).click();
  await expect(heading(page, 'Contoso Lab Evaluation')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Approve' })).toBeVisible();
});
