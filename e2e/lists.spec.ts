/**
 * Sorted lists end to end (issue 12, docs/decisions.md "Sorting"): the certificate list of the demo
 * seed sorted by its Until header, both ways, with the keyboard too; the order in the URL and kept by
 * a reload; the header saying the order (aria-sort); axe with a sorted header; the select that sorts
 * the cards at phone width. It only reads the seed.
 */
import type { Page } from '@playwright/test';
import { expect, expectAccessible, shoot, signInToCertificates, test } from './support';

const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];

/** A date as the lists show it (05-MAR-2024), as a number that sorts like the date. */
function dayOf(text: string): number {
  const [day, month, year] = text.trim().split('-');
  return Number(year) * 10_000 + (MONTHS.indexOf(month) + 1) * 100 + Number(day);
}

/** The rows of the list as they are shown: each row's DN and the day of a column. */
async function rowsBy(page: Page, column: string) {
  const rows = page.locator('tbody tr');
  await expect(rows.first()).toBeVisible();
  return rows.evaluateAll(
    (trs, label) => trs.map((tr) => ({ dn: tr.querySelector('th')?.textContent ?? '', day: tr.querySelector(`td[data-label="${label}"]`)?.textContent ?? '' })),
    column,
  );
}

const header = (page: Page, name: string) => page.getByRole('columnheader', { name });

test('the certificate list sorts by Until from its header, both ways, kept in the URL and by a reload', async ({ page }) => {
  await signInToCertificates(page, 'issuer@contoso.example');
  const usual = await rowsBy(page, 'Until');
  expect(usual.length).toBeGreaterThanOrEqual(3);
  // The usual order is by name: the DN's header says so.
  await expect(header(page, 'Distinguished Name')).toHaveAttribute('aria-sort', 'ascending');
  await expect(header(page, 'Until')).not.toHaveAttribute('aria-sort', /./);

  await page.getByRole('button', { name: 'Until' }).click();
  await expect(page).toHaveURL(/[?&]sort=date_not_after(&|$)/);
  await expect(header(page, 'Until')).toHaveAttribute('aria-sort', 'ascending');
  await expect(header(page, 'Distinguished Name')).not.toHaveAttribute('aria-sort', /./);
  await expect.poll(async () => (await rowsBy(page, 'Until')).map((r) => dayOf(r.day))).toEqual(usual.map((r) => dayOf(r.day)).sort((a, b) => a - b));
  const ascending = await rowsBy(page, 'Until');
  expect(ascending.map((r) => r.dn)).not.toEqual(usual.map((r) => r.dn));

  await page.getByRole('button', { name: 'Until' }).click();
  await expect(page).toHaveURL(/[?&]sort=-date_not_after(&|$)/);
  await expect(header(page, 'Until')).toHaveAttribute('aria-sort', 'descending');
  await expect.poll(async () => (await rowsBy(page, 'Until')).map((r) => dayOf(r.day))).toEqual(usual.map((r) => dayOf(r.day)).sort((a, b) => b - a));
  const descending = await rowsBy(page, 'Until');

  await page.reload();
  await expect(header(page, 'Until')).toHaveAttribute('aria-sort', 'descending');
  await expect.poll(async () => (await rowsBy(page, 'Until')).map((r) => r.dn)).toEqual(descending.map((r) => r.dn));
  await expectAccessible(page);
  await shoot(page, 'certificates-sorted');

  // The keyboard: the header's button takes focus and Enter sorts.
  await page.getByRole('button', { name: 'Valid From' }).focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/[?&]sort=date_not_before(&|$)/);
  await expect(header(page, 'Valid From')).toHaveAttribute('aria-sort', 'ascending');

  // Back undoes it, as every change of a list's query.
  await page.goBack();
  await expect(page).toHaveURL(/[?&]sort=-date_not_after(&|$)/);
  await expect(header(page, 'Until')).toHaveAttribute('aria-sort', 'descending');
});

test('at phone width a select above the cards sorts them', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signInToCertificates(page, 'issuer@contoso.example');
  const select = page.getByLabel('Sort certificates by');
  await expect(select).toHaveValue('distinguished_name');
  await expect(page.getByRole('button', { name: 'Until' })).toBeHidden();
  const usual = (await rowsBy(page, 'Until')).map((r) => dayOf(r.day));
  // By name the days are not in order, so the sorted order below can only come from the new answer.
  expect(usual).not.toEqual([...usual].sort((a, b) => b - a));
  await select.selectOption('-date_not_after');
  await expect(page).toHaveURL(/[?&]sort=-date_not_after(&|$)/);
  // The cards keep showing the last answer until the sorted one arrives: wait for it.
  await expect.poll(async () => (await rowsBy(page, 'Until')).map((r) => dayOf(r.day))).toEqual([...usual].sort((a, b) => b - a));
  await expectAccessible(page);
  // The usual order leaves the URL.
  await select.selectOption('distinguished_name');
  await expect(page).not.toHaveURL(/sort=/);
});
