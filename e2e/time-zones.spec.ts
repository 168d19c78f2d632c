/**
 * License days in the requester's zone (DECISIONS.md "Licenses", issue 30 item 11): the request form
 * sends the browser's zone, and a license of 10 days from 26-MAR-2027 in Berlin, across the change to
 * summer time, shows the same last day in the list and the details: 04-APR-2027 to a viewer in Berlin,
 * and to a viewer in New York its start and end at their hours there, never a day that reads as 11.
 */
import type { Page } from '@playwright/test';
import type { License } from '../common/schemas/license';
import { apiOf, expect, expectAccessible, signInToCertificates, test } from './support';

const uniqueName = (what: string) => `E2E ${what} ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/** The license's row in the list filtered by its name, and then its details, as this viewer sees them. */
async function expectShown(page: Page, organizationId: string, name: string, from: string, lastDay: string) {
  await page.goto(`/organizations/${organizationId}/licenses?name=${encodeURIComponent(name)}`);
  const row = page.getByRole('row').filter({ has: page.getByRole('link', { name, exact: true }) });
  await expect(row).toContainText(`${from}`);
  await expect(row).toContainText(`${lastDay}`);
  // Only as many hours as the window has: no time where it starts or ends at this viewer's midnight.
  if (!lastDay.includes('until')) await expect(row).not.toContainText('until');
  await row.getByRole('link', { name, exact: true }).click();
  const facts = page.getByRole('region', { name: 'License details' });
  await expect(facts.getByText(from, { exact: true })).toBeVisible();
  await expect(facts.getByText(lastDay, { exact: true })).toBeVisible();
}

test.describe('a license requested in Berlin', () => {
  test.use({ timezoneId: 'Europe/Berlin' });

  test('carries the browser’s zone, and the list and the details show one end in Berlin and in New York', async ({ page, browser, browserProblems }) => {
    await signInToCertificates(page, 'issuer@contoso.example');
    const issuer = await apiOf(page);
    const organizationId = issuer.organizationId;

    // Through the form: the request names the zone its days are counted in.
    const requested = uniqueName('Berlin form');
    await page.goto(`/organizations/${organizationId}/licenses/new`);
    await page.getByLabel('License name').fill(requested);
    await page.getByLabel('Days valid').fill('10');
    await page.getByRole('button', { name: 'Request license' }).click();
    await expect(page.getByText(`License ${requested} requested.`)).toBeVisible();
    const id = new URL(page.url()).pathname.split('/').pop()!;
    expect((await issuer.call<License>('GET', `/api/licenses/${id}`)).time_zone).toBe('Europe/Berlin');

    // Across the change to summer time (28-MAR-2027): 10 days end at 05-APR 00:00 in Berlin, 04-APR its last day.
    const name = uniqueName('Berlin spring');
    await issuer.call('POST', `/api/organizations/${organizationId}/licenses`, {
      data: { license_name: name, license_scope: 'LAB', date_valid_from: '2027-03-26', days_valid: 10, time_zone: 'Europe/Berlin' },
    });
    await expectShown(page, organizationId, name, '26-MAR-2027', '04-APR-2027');
    await expectAccessible(page);

    // In New York (summer time since 14-MAR) the same window runs from 19:00 to 18:00, shown so in both places.
    const context = await browser.newContext({ timezoneId: 'America/New_York' });
    await browserProblems.watch(context);
    const newYork = await context.newPage();
    await signInToCertificates(newYork, 'issuer@contoso.example');
    await expectShown(newYork, organizationId, name, '25-MAR-2027, from 19:00', '04-APR-2027, until 18:00');
    await context.close();
  });
});
