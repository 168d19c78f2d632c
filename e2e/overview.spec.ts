/**
 * The overview (issue 12 item 6) end to end, on the demo seed: opened from the sidebar, its counts
 * are the lists' totals (a count's link opens the list filtered so, and the list says as many),
 * sign-in still lands on Certificates and /admin on the pending tasks; axe in light and dark at
 * laptop and phone width, and screenshots with SHOTS_DIR. It only reads.
 */
import type { Page } from '@playwright/test';
import { expect, expectAccessible, shoot, signInToCertificates, test } from './support';

const heading = (page: Page, name: string) => page.getByRole('heading', { level: 1, name });

/** The number before the words of a count link ("3 Not approved"). */
async function countOf(link: ReturnType<Page['getByRole']>): Promise<number> {
  const text = (await link.textContent()) ?? '';
  const n = Number(/^[\d,]+/.exec(text.trim())?.[0].replace(/,/g, ''));
  expect(Number.isInteger(n), `a count in "${text}"`).toBe(true);
  return n;
}

/** A list's total as its pager says it ("Showing certificates 1–3 of 3"), or 0 for "No certificates found.". */
async function listTotal(page: Page, noun: string): Promise<number> {
  const summary = page.getByText(new RegExp(`^(Showing ${noun} \\d+–\\d+ of \\d+|No ${noun} found\\.)$`));
  await expect(summary.first()).toBeVisible();
  const text = (await summary.first().textContent()) ?? '';
  return Number(/of (\d+)$/.exec(text)?.[1] ?? 0);
}

async function chartShown(page: Page) {
  const chart = page.getByRole('region', { name: 'Expiries in the next 12 months' });
  await expect(chart.locator('.recharts-surface')).toBeVisible();
  return chart;
}

test('a member opens the overview of Contoso from the sidebar, and its counts are the lists\' totals', async ({ page }) => {
  await signInToCertificates(page, 'member@contoso.example');
  const sidebar = page.getByLabel('Organization sidebar');
  // Overview is the first section of the sidebar; sign-in still landed on Certificates.
  await expect(sidebar.getByRole('link').first()).toHaveText('Overview');
  await sidebar.getByRole('link', { name: 'Overview', exact: true }).click();
  await expect(page).toHaveURL(/\/organizations\/[^/]+\/overview$/);
  await expect(heading(page, 'Overview')).toBeVisible();
  await expect(page.getByText('What needs attention in Contoso.')).toBeVisible();
  const chart = await chartShown(page);
  await expect(chart.getByText(/end in the next 12 months|No approved certificate or license ends/)).toBeVisible();
  // The demo's Contoso has no journal records yet (nothing this member may do writes one).
  const journal = page.getByRole('region', { name: 'Latest journal records' });
  await expect(journal.getByRole('listitem').first().or(journal.getByText('No audit records found.'))).toBeVisible();
  await expectAccessible(page);
  await shoot(page, 'overview-organization');

  // The certificates' total, then a status count followed to its list.
  const certificates = page.getByRole('region', { name: /^Certificates \(\d+\)$/ });
  const total = Number(/\((\d+)\)/.exec((await certificates.getByRole('heading').textContent()) ?? '')?.[1]);
  const approved = certificates.getByRole('link', { name: /^\d+ Approved$/ });
  const approvedCount = await countOf(approved);
  expect(approvedCount).toBeGreaterThan(0);
  expect(approvedCount).toBeLessThan(total);
  await approved.click();
  await expect(page).toHaveURL(/\/certificates\?status=approved$/);
  expect(await listTotal(page, 'certificates')).toBe(approvedCount);

  // The requests waiting for approval lead to the Not approved licenses.
  await page.goBack();
  await expect(heading(page, 'Overview')).toBeVisible();
  const waiting = page.getByRole('region', { name: 'Waiting for approval' }).getByRole('link', { name: /^\d+ licenses?$/ });
  const waitingCount = await countOf(waiting);
  await waiting.click();
  await expect(page).toHaveURL(/\/licenses\?status=not_approved$/);
  expect(await listTotal(page, 'licenses')).toBe(waitingCount);

  // At phone width the sidebar is behind the menu; the overview is there too, accessible.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goBack();
  await expect(heading(page, 'Overview')).toBeVisible();
  await chartShown(page);
  await expectAccessible(page);
});

test('operator staff see the overview of every organization in the admin area; /admin still opens the pending tasks', async ({ page }) => {
  await signInToCertificates(page, 'supervisor@operator.example');
  await page.getByRole('link', { name: 'Admin' }).click();
  await expect(page).toHaveURL(/\/admin\/pending-tasks$/);
  await page.getByLabel('Admin sidebar').getByRole('link', { name: 'Overview' }).click();
  await expect(page).toHaveURL(/\/admin\/overview$/);
  await expect(heading(page, 'Overview')).toBeVisible();
  await expect(page.getByText(/across \d+ organizations/)).toBeVisible();
  await chartShown(page);
  // The journal names each record's organization.
  await expect(page.getByRole('region', { name: 'Latest journal records' }).getByRole('link').first()).toBeVisible();
  await expectAccessible(page);
  await shoot(page, 'overview-admin');

  // Waiting approvals lead to the pending tasks, which count as many.
  const waiting = page.getByRole('region', { name: 'Waiting for approval' }).getByRole('link', { name: /^\d+ certificates?$/ });
  const waitingCount = await countOf(waiting);
  await waiting.click();
  await expect(page).toHaveURL(/\/admin\/pending-tasks$/);
  const approvals = page.getByRole('region', { name: 'Pending approvals' });
  await expect(approvals.getByRole('heading', { name: `Certificates (${waitingCount})` })).toBeVisible();

  // Valid certificates, and those expiring within 90 days: the admin list filtered so says as many.
  await page.goBack();
  await expect(heading(page, 'Overview')).toBeVisible();
  const valid = page.getByRole('region', { name: /^Certificates \(\d+\)$/ }).getByRole('link', { name: /^\d+ Valid$/ });
  const validCount = await countOf(valid);
  expect(validCount).toBeGreaterThan(0);
  await valid.click();
  await expect(page).toHaveURL(/\/admin\/certificates\?status=valid$/);
  expect(await listTotal(page, 'certificates')).toBe(validCount);
  await page.goBack();
  await expect(heading(page, 'Overview')).toBeVisible();
  const within90 = page.getByRole('link', { name: /^Certificates expiring within 90 days: \d+$/ });
  const expiring = Number(/(\d+)$/.exec((await within90.getAttribute('aria-label')) ?? '')?.[1]);
  await within90.click();
  await expect(page).toHaveURL(/\/admin\/certificates\?status=approved&expiringWithin=90$/);
  expect(await listTotal(page, 'certificates')).toBe(expiring);
});

test('people outside the operator have no admin overview in their sidebar', async ({ page }) => {
  await signInToCertificates(page, 'admin@northwind.example');
  await page.getByRole('link', { name: 'Admin' }).click();
  await expect(page).toHaveURL(/\/admin\/pending-tasks$/);
  await expect(page.getByLabel('Admin sidebar').getByRole('link', { name: 'Pending Tasks' })).toBeVisible();
  await expect(page.getByLabel('Admin sidebar').getByRole('link', { name: 'Overview' })).toHaveCount(0);
  await page.goto('/admin/overview');
  await expect(page.getByText('This admin screen is not available to you')).toBeVisible();
});
