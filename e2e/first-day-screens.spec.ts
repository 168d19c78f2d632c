/**
 * The first day's rough edges on screen (issue 34), each test failing if its fix were undone:
 * lists scroll with the page, not in a box of their own (the last row and the paging reached at 1366×768);
 * every details screen has the same way back (BackLink) and a breadcrumb that links its section;
 * an organization's Resources as cards on the phone, none clipped; destructive actions alike (Ban, Remove,
 * Revoke); Approve before Revoke; the bulk Approve confirmed in the theme's colour, Reject in red; Pending
 * Tasks' DNs broken between their parts; the phone's title not cut. Axe on every screen touched.
 */
import type { Locator, Page } from '@playwright/test';
import { answerTo, apiAs, expect, expectAccessible, row, signInToCertificates, test, uploadContosoCertificates } from './support';

const LAPTOP = { width: 1366, height: 768 };
const PHONE = { width: 390, height: 844 };

const sidebar = (page: Page) => page.getByLabel('Organization sidebar');

/** The look of a button that says what kind of action it is. */
const lookOf = (button: Locator) =>
  button.evaluate((b) => {
    const style = getComputedStyle(b);
    return { variant: b.getAttribute('data-variant'), color: style.color, border: style.borderTopColor, background: style.backgroundColor };
  });

test('a list scrolls with the page at 1366×768: no box of its own, the last row and the paging in view at the bottom', async ({ page, newPage }) => {
  // Twelve licenses at least, as the list of 11 that showed 8.
  const issuer = await apiAs(newPage, 'issuer@contoso.example');
  const stamp = Date.now();
  for (let i = 0; i < 12; i++) {
    await issuer.call('POST', `/api/organizations/${issuer.organizationId}/licenses`, { data: { license_name: `Scroll ${stamp} ${i}`, license_scope: 'LAB', days_valid: 30 } });
  }
  await page.setViewportSize(LAPTOP);
  await signInToCertificates(page, 'issuer@contoso.example');
  const answer = answerTo<unknown[]>(page, '/licenses');
  await sidebar(page).getByRole('link', { name: 'Licenses', exact: true }).click();
  const licenses = await answer;
  expect(licenses.length).toBeGreaterThanOrEqual(12);
  const table = page.getByRole('table', { name: 'Licenses' });
  await expect(table.locator('tbody tr')).toHaveCount(licenses.length);
  // Taller than the window: the old box (window height less 8 rem) showed only part of it.
  expect((await table.boundingBox())!.height).toBeGreaterThan(LAPTOP.height - 128);

  const box = page.getByRole('region', { name: 'Licenses' });
  const scrolls = await box.evaluate((b) => ({ inner: b.scrollHeight - b.clientHeight, overflowY: getComputedStyle(b).overflowY }));
  expect(scrolls.inner).toBeLessThanOrEqual(1);
  expect(scrolls.overflowY).not.toBe('auto');

  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await expect(table.locator('tbody tr').last()).toBeInViewport({ ratio: 1 });
  await expect(page.getByText(new RegExp(`^Showing licenses 1–${licenses.length} of ${licenses.length}$`))).toBeInViewport();
  await expectAccessible(page);
});

test('every details screen has the same way back and a breadcrumb that links its section', async ({ page }) => {
  await page.setViewportSize(LAPTOP);
  await signInToCertificates(page, 'admin@northwind.example');
  const crumbs = page.getByRole('navigation', { name: 'Breadcrumb' });
  const screens = [
    { section: 'Certificates', list: 'certificates', open: () => page.getByRole('table', { name: 'Certificates' }).locator('tbody tr th a').first() },
    { section: 'Licenses', list: 'licenses', open: () => page.getByRole('table', { name: 'Licenses' }).locator('tbody tr th a').first() },
    { section: 'Members', list: 'members', open: () => page.getByRole('table', { name: 'Members' }).locator('tbody tr a').first() },
  ];
  for (const screen of screens) {
    await sidebar(page).getByRole('link', { name: screen.section, exact: true }).click();
    const listUrl = page.url();
    await expect(crumbs.getByText(screen.section, { exact: true })).toHaveAttribute('aria-current', 'page');
    await screen.open().click();
    const back = page.getByRole('link', { name: `Back to ${screen.list}`, exact: true });
    await expect(back).toBeVisible();
    // Above the heading, the same component on each (BackLink).
    const [backBox, headingBox] = await Promise.all([back.boundingBox(), page.getByRole('heading', { level: 1 }).boundingBox()]);
    expect(backBox!.y).toBeLessThan(headingBox!.y);
    await expect(back).toHaveAttribute('data-back-link', 'true');
    await expect(crumbs.getByRole('link', { name: screen.section, exact: true })).toBeVisible();
    if (screen.list === 'members') await expectAccessible(page);
    await back.click();
    await expect(page).toHaveURL(listUrl);
  }

  // The admin area's details screens too.
  await page.goto('/admin/organizations');
  await page.getByRole('table').locator('tbody tr a').filter({ hasText: 'Contoso' }).first().click();
  const back = page.getByRole('link', { name: 'Back to organizations', exact: true });
  await expect(back).toHaveAttribute('data-back-link', 'true');
  await back.click();
  await expect(page).toHaveURL(/\/admin\/organizations$/);
});

test('an organization\'s Resources on the phone: one card per resource, no column clipped', async ({ page }) => {
  await signInToCertificates(page, 'supervisor@operator.example');
  await page.setViewportSize(PHONE);
  await page.goto('/admin/organizations');
  await page.getByRole('table').locator('tbody tr a').filter({ hasText: 'Contoso' }).first().click();
  await page.getByRole('tab', { name: 'Resources' }).click();
  const table = page.getByRole('table', { name: 'Resources of the organization' });
  const rows = table.locator('tbody tr');
  await expect(rows.first()).toBeVisible();
  const width = await page.evaluate(() => document.documentElement.clientWidth);
  for (const box of await rows.evaluateAll((trs) => trs.map((tr) => tr.getBoundingClientRect().right))) expect(box).toBeLessThanOrEqual(width);
  // Each card names its path pattern, the last column of the table.
  await expect(rows.first().locator('td[data-label="Path pattern"]')).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true);
  await expectAccessible(page);
});

test('destructive actions look alike: a member\'s Ban and Remove as a certificate\'s Revoke, after the plain ones', async ({ page, newPage }) => {
  await page.setViewportSize(LAPTOP);
  await signInToCertificates(page, 'admin@northwind.example');
  await page.getByRole('combobox', { name: 'Organization' }).click();
  await page.getByRole('option', { name: 'Contoso' }).click();
  await sidebar(page).getByRole('link', { name: 'Members', exact: true }).click();
  await row(page, 'member@contoso.example').getByRole('link').first().click();
  const ban = page.getByRole('button', { name: 'Ban', exact: true });
  const remove = page.getByRole('button', { name: 'Remove', exact: true });
  await expect(ban).toBeVisible();
  const [banLook, removeLook] = await Promise.all([lookOf(ban), lookOf(remove)]);
  expect(removeLook).toEqual(banLook);
  expect(banLook.variant).toBe('outline');
  await expectAccessible(page);

  // A certificate's Revoke, as the approver sees it on an approved one: the same look.
  const approver = await newPage();
  await approver.setViewportSize(LAPTOP);
  await signInToCertificates(approver, 'approver@operator.example');
  await approver.getByRole('combobox', { name: 'Organization' }).click();
  await approver.getByRole('option', { name: 'Contoso' }).click();
  await approver.getByRole('table', { name: 'Certificates' }).locator('tbody tr').filter({ has: approver.getByText('Approved', { exact: true }) }).locator('th a').first().click();
  const revoke = approver.getByRole('button', { name: 'Revoke', exact: true });
  await expect(revoke).toBeVisible();
  expect(await lookOf(revoke)).toEqual(banLook);
});

test('Approve comes before Revoke, and the bulk Approve is confirmed in the theme\'s colour while Reject is red', async ({ page, newPage }) => {
  await page.setViewportSize(LAPTOP);
  const issuer = await apiAs(newPage, 'issuer@contoso.example');
  const { dns: [dn] } = await uploadContosoCertificates(issuer, 1, { prefix: 'order', description: 'Action order', daysValid: 120 });
  const name = `Confirm colour ${Date.now()}`;
  await issuer.call('POST', `/api/organizations/${issuer.organizationId}/licenses`, { data: { license_name: name, license_scope: 'LAB', days_valid: 30 } });

  await signInToCertificates(page, 'approver@operator.example');
  await page.goto('/admin/pending-tasks');
  await expect(page.getByRole('heading', { name: 'Pending approvals' })).toBeVisible();
  // The DN breaks between its parts, never inside one: a break opportunity after each separating comma.
  const link = page.getByRole('link', { name: dn });
  await expect(link).toBeVisible();
  expect(await link.locator('wbr').count()).toBe(dn.split(/(?<!\\),/).length - 1);
  await link.click();
  await expect(page.getByRole('button', { name: 'Revoke', exact: true })).toBeVisible();
  const actions = await page.getByRole('button').allTextContents();
  const approve = actions.indexOf('Approve');
  expect(approve).toBeGreaterThanOrEqual(0);
  expect(approve).toBeLessThan(actions.indexOf('Revoke'));

  await page.goto('/admin/pending-tasks');
  const section = page.locator('section[aria-labelledby="pending-approvals-licenses"]');
  await section.getByRole('button', { name: 'Created' }).click();
  await expect(page).toHaveURL(/approveLicensesSort=-date_created/);
  await section.getByRole('checkbox', { name: `Select ${name}` }).check();
  const licenseBar = section.getByRole('region', { name: 'Bulk actions: pending licenses' });
  const confirmLook = async (action: 'Approve' | 'Reject') => {
    await licenseBar.getByRole('button', { name: `${action} (1)`, exact: true }).click();
    const dialog = page.getByRole('dialog', { name: `${action} 1 license?` });
    const look = await lookOf(dialog.getByRole('button', { name: `${action} 1` }));
    if (action === 'Approve') await expectAccessible(page);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toHaveCount(0);
    return look;
  };
  const approveLook = await confirmLook('Approve');
  const rejectLook = await confirmLook('Reject');
  expect(approveLook.background).not.toBe(rejectLook.background);
  // The theme's colour: as the bar's own Approve button.
  expect(approveLook.background).toBe((await lookOf(licenseBar.getByRole('button', { name: 'Approve (1)', exact: true }))).background);
});

test('on the phone the header\'s title is shown whole', async ({ page }) => {
  await page.setViewportSize(PHONE);
  await signInToCertificates(page, 'issuer@contoso.example');
  const title = page.getByRole('banner').getByText('Customer Portal', { exact: true });
  await expect(title).toBeVisible();
  expect(await title.evaluate((t) => t.scrollWidth <= t.clientWidth)).toBe(true);
});
