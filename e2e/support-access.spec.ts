/**
 * Vendor support access end to end (issue 33 item 2): the vendor's support engineer asks Northwind for access, its
 * administrator sees the notice and approves, both see their banner, the engineer reads Northwind's licenses, the
 * administrator ends it, the engineer's next click is refused, and Northwind's journal shows every step. Axe on the
 * new screens at laptop and phone width in both schemes. Set SHOTS_DIR to also save screenshots.
 */
import type { Page } from '@playwright/test';
import { expect, expectAccessible, organizationIdOf, row, shoot, signInToCertificates, test, toast } from './support';

const sidebarLink = (page: Page, name: string) => page.getByLabel('Organization sidebar').getByRole('link', { name, exact: true });

/** Axe at laptop width, then at phone width (both schemes each time), then back. */
async function accessibleAtBothWidths(page: Page) {
  await expectAccessible(page);
  const before = page.viewportSize();
  await page.setViewportSize({ width: 390, height: 844 });
  await expectAccessible(page);
  if (before) await page.setViewportSize(before);
}

const posted = (page: Page, path: RegExp) => page.waitForResponse((r) => r.request().method() === 'POST' && path.test(new URL(r.url()).pathname));

test('a support engineer asks, the customer approves, both see the banner, the customer ends it and the next click is refused', async ({ page, newPage, browserProblems }) => {
  test.setTimeout(120_000);
  const reason = `Incident ${Date.now()}: license check fails`;
  await signInToCertificates(page, 'support@operator.example');
  await page.getByRole('link', { name: 'Admin', exact: true }).click();
  await page.getByLabel('Admin sidebar').getByRole('link', { name: 'Support Access', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Support Access' })).toBeVisible();
  await page.getByRole('combobox', { name: 'Organization' }).click();
  await page.getByRole('option', { name: 'Northwind Networks', exact: true }).click();
  await page.getByLabel('Hours').fill('2');
  await page.getByLabel('Reason').fill(reason);
  await accessibleAtBothWidths(page);
  await shoot(page, 'support-request-form');
  const asked = posted(page, /\/support-access$/);
  await page.getByRole('button', { name: 'Request access' }).click();
  const answer = await asked;
  expect(answer.status()).toBe(201);
  const { request_id: id, organization_id: northwind } = (await answer.json()) as { request_id: number; organization_id: string };
  await expect(row(page, `#${id}`)).toContainText('Waiting');

  // The customer's administrator is told (the worker dispatches every 2 s) and approves from the notice's page.
  const admin = await newPage();
  await signInToCertificates(admin, 'admin@northwind.example');
  const notice = admin.getByRole('table', { name: 'Notices' }).getByRole('row').filter({ hasText: `support access #${id} ` });
  await expect(async () => {
    await admin.goto('/notices');
    await expect(notice).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
  await admin.goto(`/organizations/${northwind}/support-access`);
  await expect(row(admin, `#${id}`)).toContainText(reason);
  await accessibleAtBothWidths(admin);
  await shoot(admin, 'support-access-page');
  const approved = posted(admin, new RegExp(`/support-access/${id}/approve$`));
  await admin.getByRole('button', { name: `Approve request #${id}` }).click();
  expect((await approved).status()).toBe(200);
  await expect(toast(admin, `Approved support request #${id}.`)).toBeVisible();
  await expect(admin.getByTestId('support-banner')).toContainText('Vendor support (Sam Support) has access as Member until');
  await accessibleAtBothWidths(admin);
  await shoot(admin, 'support-banner-customer');

  // The engineer reads Northwind's licenses under the banner of its request.
  await page.goto(`/organizations/${northwind}/licenses`);
  await expect(page.getByTestId('support-banner')).toContainText(`You act under support request #${id} as Member until`);
  await expect(page.getByRole('heading', { level: 1, name: 'Licenses' })).toBeVisible();
  await expect(page.getByRole('table', { name: /licenses/i }).getByRole('row').nth(1)).toBeVisible();
  await accessibleAtBothWidths(page);
  await shoot(page, 'support-banner-engineer');

  // The customer ends it now; the engineer's next click is refused.
  const ended = posted(admin, new RegExp(`/support-access/${id}/end$`));
  await admin.getByRole('button', { name: `End support access #${id} now` }).click();
  await admin.getByRole('dialog', { name: `End support access #${id}?` }).getByRole('button', { name: 'End now' }).click();
  expect((await ended).status()).toBe(200);
  await expect(admin.getByTestId('support-banner')).toHaveCount(0);
  expect(organizationIdOf(page)).toBe(northwind);
  // The refusal is what the test asks for: its 404 in the console is no defect.
  browserProblems.expectRefusal(404, new RegExp(`^/api/organizations/${northwind}/`));
  const refused = page.waitForResponse((r) => new URL(r.url()).pathname.startsWith(`/api/organizations/${northwind}/certificates`));
  await sidebarLink(page, 'Certificates').click();
  expect((await refused).status()).toBe(404);
  // The refusal ends the engineer's banner too, without waiting for its minute.
  await expect(page.getByTestId('support-banner')).toHaveCount(0);

  // Northwind's journal shows every step.
  await admin.goto(`/organizations/${northwind}/auditrecords`);
  for (const step of [`Asked for support access #${id} `, `Approved support access #${id} `, `Ended support access #${id} `]) {
    await expect(row(admin, step).first()).toBeVisible();
  }
});
