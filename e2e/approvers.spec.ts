/**
 * Approval work reaches approvers (issue 34 item 1), end to end: Contoso's issuer uploads a
 * certificate; the operator's approver signs in through the provider's form, lands on Pending Tasks
 * (something waits), reaches it again from the header's "Pending Tasks" link (no Admin link: SPEC.md's
 * gate stays) and finds the upload under the bell. SHOTS_DIR saves the screens at 1366×768 and 390×844.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { apiAs, expect, expectAccessible, PENDING_TASKS_URL, signIn, SIGN_IN_TIMEOUT, test, uploadContosoCertificates } from './support';

const bell = (page: Page) => page.getByRole('button', { name: /^Notifications, \d+ unread$/ });

async function unreadShown(page: Page): Promise<number> {
  const name = (await bell(page).getAttribute('aria-label')) ?? '';
  return Number(/(\d+) unread/.exec(name)?.[1] ?? NaN);
}

/** With SHOTS_DIR: the screen at the widths issue 34 names, the phone one checked by axe too. */
async function shootAt(page: Page, name: string) {
  const dir = process.env.SHOTS_DIR;
  if (!dir) return;
  fs.mkdirSync(dir, { recursive: true });
  const before = page.viewportSize();
  for (const [width, height, label] of [[1366, 768, 'laptop'], [390, 844, 'phone']] as const) {
    await page.setViewportSize({ width, height });
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: path.join(dir, `${name}-${label}.png`), fullPage: true });
    if (label === 'phone') await expectAccessible(page);
  }
  if (before) await page.setViewportSize(before);
}

test("the operator's approver lands on Pending Tasks after signing in and finds a customer's upload under the bell", async ({ page, newPage }) => {
  const issuer = await apiAs(newPage, 'issuer@contoso.example');
  const { dns: [dn] } = await uploadContosoCertificates(issuer, 1, { prefix: 'approvers', description: 'Approvers test gateway', daysValid: 200 });

  await signIn(page, 'approver@operator.example');
  await expect(page).toHaveURL(PENDING_TASKS_URL, { timeout: SIGN_IN_TIMEOUT });
  await expect(page.getByRole('heading', { level: 1, name: 'Pending Tasks' })).toBeVisible({ timeout: SIGN_IN_TIMEOUT });
  // SPEC.md's Admin link stays for SUPERVISOR, ADMINISTRATOR and DEVOPS; the approver's way in is its own link.
  const banner = page.getByRole('banner');
  await expect(banner.getByRole('link', { name: 'Admin' })).toHaveCount(0);
  await expect(banner.getByRole('link', { name: 'Pending Tasks' })).toHaveAttribute('aria-current', 'page');

  // The upload's notice reaches the approver's bell (the worker dispatches every 2 s; the bell asks again on focus).
  await expect.poll(async () => {
    await page.evaluate(() => window.dispatchEvent(new Event('focus')));
    return unreadShown(page);
  }, { timeout: 30_000 }).toBeGreaterThan(0);
  await expect.poll(async () => {
    await page.evaluate(() => window.dispatchEvent(new Event('focus')));
    await bell(page).click();
    const found = await page.getByRole('dialog', { name: /^Notifications, \d+ unread$/ }).getByRole('link', { name: new RegExp(`Uploaded certificate ${escape(dn)}`) }).count();
    await page.keyboard.press('Escape');
    return found;
  }, { timeout: 30_000 }).toBe(1);
  await expectAccessible(page);
  await shootAt(page, 'approver-pending-tasks');

  // Elsewhere in the portal, the header link leads back to Pending Tasks.
  await banner.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Self-Service' }).click();
  await expect(page).toHaveURL(/\/organizations$/);
  await banner.getByRole('link', { name: 'Pending Tasks' }).click();
  await expect(page).toHaveURL(PENDING_TASKS_URL);
  await expect(page.getByRole('heading', { level: 1, name: 'Pending Tasks' })).toBeVisible();

  await bell(page).click();
  await expect(page.getByRole('dialog', { name: /^Notifications, \d+ unread$/ })).toBeVisible();
  await expectAccessible(page);
  await shootAt(page, 'approver-bell');
});

/** The text as a literal in a RegExp. */
function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
