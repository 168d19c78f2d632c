/**
 * The approvers' daily digest (issue 34 item 1), on screen: the operator's supervisor opens Notices, finds
 * "Approval mail" with a mail per request chosen, chooses the daily digest (07:00 in the browser's zone), and finds
 * it chosen after a reload, as the server kept it; axe-clean at laptop and phone width in both schemes. A customer's
 * issuer, who settles no approvals, is not offered it.
 */
import type { Page } from '@playwright/test';
import type { MailPreferences } from '../common/schemas/notifications';
import { answerTo, expect, expectAccessible, signInToCertificates, test, toast } from './support';

const panel = (page: Page) => page.getByRole('region', { name: 'Approval mail' });

async function openNotices(page: Page): Promise<MailPreferences> {
  const answer = answerTo<MailPreferences>(page, '/notices/preferences');
  await page.goto('/notices');
  await expect(page.getByRole('heading', { level: 1, name: 'Notices' })).toBeVisible();
  return answer;
}

async function choose(page: Page, label: 'A daily digest' | 'A mail per request'): Promise<MailPreferences> {
  const saved = page.waitForResponse((r) => r.request().method() === 'PUT' && new URL(r.url()).pathname === '/api/notices/preferences');
  // Shown chosen once the server kept it (the radio follows the saved preference).
  await panel(page).getByRole('radio', { name: label }).click();
  const response = await saved;
  expect(response.ok()).toBe(true);
  await expect(panel(page).getByRole('radio', { name: label })).toBeChecked();
  return (await response.json()) as MailPreferences;
}

test('a supervisor chooses the daily digest of approval work on Notices, and it stays chosen', async ({ page }) => {
  await page.setViewportSize({ width: 1366, height: 768 });
  await signInToCertificates(page, 'supervisor@operator.example');
  const zone = await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
  const before = await openNotices(page);
  if (before.approval_mail === 'digest') await choose(page, 'A mail per request');
  await expect(panel(page).getByRole('radio', { name: 'A mail per request' })).toBeChecked();
  await expect(panel(page).getByText(`One mail a day at 07:00 (${zone})`)).toBeVisible();

  try {
    const saved = await choose(page, 'A daily digest');
    expect(saved).toMatchObject({ approval_mail: 'digest', time_zone: zone });
    await expect(toast(page, `Approval work now comes in one mail a day at 07:00 (${zone}).`)).toBeVisible();

    const reread = await openNotices(page);
    expect(reread.approval_mail).toBe('digest');
    await expect(panel(page).getByRole('radio', { name: 'A daily digest' })).toBeChecked();
    await expectAccessible(page);
    await page.setViewportSize({ width: 390, height: 844 });
    await panel(page).scrollIntoViewIfNeeded();
    await expect(panel(page).getByRole('radio', { name: 'A daily digest' })).toBeInViewport();
    await expectAccessible(page);
  } finally {
    await choose(page, 'A mail per request');
  }
});

test('a customer\'s issuer, who settles no approvals, is not offered approval mail', async ({ page }) => {
  await signInToCertificates(page, 'issuer@contoso.example');
  await page.goto('/notices');
  await expect(page.getByRole('heading', { level: 1, name: 'Notices' })).toBeVisible();
  await expect(page.getByRole('table').or(page.getByText(/No (unread )?notices/))).toBeVisible();
  await expect(panel(page)).toHaveCount(0);
});
