/**
 * The filters of issue 12 item 2 end to end, on the demo seed (docs/decisions.md "Status filters"):
 * status chips and "expiring within" under More filters, kept in the URL and by a reload, the export
 * of exactly the filtered rows, the range on Until from the URL, rows per page and compact rows
 * remembered in the browser, and the header row that stays in view. It only reads the seed.
 */
import fs from 'node:fs';
import type { Page } from '@playwright/test';
import { parse } from 'csv-parse/sync';
import { expect, expectAccessible, shoot, signInToCertificates, test } from './support';

/** The DNs' common names (or license names) of the rows shown. */
async function shownNames(page: Page): Promise<string[]> {
  const names = await page.locator('tbody tr th a').allTextContents();
  return names.map((n) => /CN=([^,]+)/.exec(n)?.[1] ?? n.trim()).sort();
}

/** The rows of the list's CSV export, as objects by the header row, DNs shortened to their common name. */
async function exported(page: Page): Promise<Array<Record<string, string>>> {
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
  const rows: Array<Record<string, string>> = parse(fs.readFileSync((await download.path())!, 'utf8'), { bom: true, record_delimiter: '\r\n', columns: true });
  return rows.map((r) => ({ ...r, distinguished_name: /CN=([^,]+)/.exec(r.distinguished_name)?.[1] ?? r.distinguished_name }));
}

/** A status chip: its checkbox is drawn as its label, which is what a person clicks. */
/** Waits until the list shows `shown` and none of `hidden` (the previous answer stays until the new one arrives). */
async function expectShown(page: Page, shown: string, ...hidden: string[]) {
  await expect.poll(async () => {
    const names = await shownNames(page);
    return names.includes(shown) && !hidden.some((h) => names.includes(h));
  }).toBe(true);
}

const chip = (page: Page, group: string, name: string) => {
  const inGroup = page.getByRole('group', { name: group });
  return { click: () => inGroup.getByText(name, { exact: true }).click(), box: inGroup.getByRole('checkbox', { name, exact: true }) };
};

test('status chips and "expiring within" narrow the lists, stay in the URL, and the export holds exactly those rows', async ({ page }) => {
  // Other specs change the demo's states before this one runs: it checks what every shown row is, and
  // that rows the seed keeps in one state (the Berlin gateway valid, the old lab box acknowledged) are in or out.
  await signInToCertificates(page, 'issuer@contoso.example');
  await expect(page.locator('tbody tr').first()).toBeVisible();
  await page.getByRole('button', { name: 'More filters' }).click();
  await expect(page.getByRole('button', { name: 'More filters' })).toHaveAttribute('aria-expanded', 'true');

  // Validity: Expired; then also Expiry acknowledged (another group: both must hold).
  await chip(page, 'Validity of the certificates', 'Expired').click();
  await expect(page).toHaveURL(/[?&]status=expired(&|$)/);
  await expectShown(page, 'lab-old.contoso.example', 'gw-berlin.contoso.example');
  await chip(page, 'Expiry of the certificates', 'Expiry acknowledged').click();
  await expect(page).toHaveURL(/[?&]status=expired%2Cacknowledged(&|$)/);
  let rows = await exported(page);
  expect(rows.map((r) => r.distinguished_name)).toContain('lab-old.contoso.example');
  expect(rows.every((r) => r.expired === 'true' && r.date_expiry_acknowledged !== '')).toBe(true);

  // Two chips of one group are alternatives.
  await chip(page, 'Expiry of the certificates', 'Expiry acknowledged').click();
  await chip(page, 'Validity of the certificates', 'Expired').click();
  await chip(page, 'Approval of the certificates', 'Not approved').click();
  await chip(page, 'Approval of the certificates', 'Revoked').click();
  await expect(page).toHaveURL(/[?&]status=not_approved%2Crevoked(&|$)/);
  await expectShown(page, 'lab-leaked.contoso.example', 'gw-berlin.contoso.example', 'lab-old.contoso.example');
  await expect(page.getByRole('button', { name: 'More filters 2 in force' })).toBeVisible();
  await expectAccessible(page);
  await shoot(page, 'certificates-status-chips');

  // A reload keeps them, the panel open; the export holds those rows and no other.
  await page.reload();
  await expect(chip(page, 'Approval of the certificates', 'Revoked').box).toBeChecked();
  // The chips come from the URL before the rows arrive: read the rows once they are there.
  await expectShown(page, 'lab-leaked.contoso.example', 'gw-berlin.contoso.example', 'lab-old.contoso.example');
  const shown = await shownNames(page);
  rows = await exported(page);
  expect(rows.map((r) => r.distinguished_name).sort()).toEqual(shown);
  expect(rows.every((r) => r.approval === 'NOT_APPROVED' || r.approval === 'REVOKED')).toBe(true);
  expect(shown).not.toContain('gw-berlin.contoso.example');

  // Licenses expiring within 30 days: the rejected load test (25 days left) but not Production 2026; then only rejected ones.
  await page.getByLabel('Organization sidebar').getByRole('link', { name: 'Licenses', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Licenses' })).toBeVisible();
  await page.getByRole('button', { name: 'More filters' }).click();
  await page.getByRole('radiogroup', { name: 'Expiring within' }).getByText('30 days').click();
  await expect(page).toHaveURL(/[?&]expiringWithin=30(&|$)/);
  await expectShown(page, 'Contoso Load Test', 'Contoso Production 2026');
  const rejected = page.waitForResponse((r) => r.url().includes('/licenses?') && r.url().includes('status=rejected'));
  await chip(page, 'Status of the licenses', 'Rejected').click();
  await expect(page).toHaveURL(/[?&]status=rejected(&|$)/);
  const answer = (await (await rejected).json()) as Array<{ license_name: string }>;
  expect(answer.map((l) => l.license_name)).toContain('Contoso Load Test');
  await expect.poll(() => shownNames(page)).toEqual(answer.map((l) => l.license_name).sort());
  for (const row of await page.locator('tbody tr').all()) await expect(row.getByText('Rejected', { exact: true })).toBeVisible();
  await expectAccessible(page);
  await shoot(page, 'licenses-expiring-within');
  await page.getByRole('button', { name: 'Clear these filters' }).click();
  await expect(page).not.toHaveURL(/expiringWithin|status=/);
  await expect.poll(() => shownNames(page)).toContain('Contoso Production 2026');
});

test('a range of days on Until, from the URL, shows in the picker and narrows the list', async ({ page }) => {
  await signInToCertificates(page, 'issuer@contoso.example');
  // The Munich gateway ended 5 days ago, the old lab box 100 days ago.
  const day = (offset: number) => {
    const d = new Date(Date.now() + offset * 86_400_000);
    return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
  };
  await page.goto(`${new URL(page.url()).pathname}?untilFrom=${day(-10)}&untilTo=${day(0)}`);
  await expectShown(page, 'gw-munich.contoso.example', 'lab-old.contoso.example', 'gw-berlin.contoso.example');
  await expect(page.getByRole('button', { name: 'More filters 1 in force' })).toHaveAttribute('aria-expanded', 'true');
  await expect(page.getByRole('button', { name: 'Until between' })).toContainText(/\d{2}-[A-Z]{3}-\d{4} – \d{2}-[A-Z]{3}-\d{4}/);
  await expectAccessible(page);
});

test('rows per page and compact rows are remembered for every list, and the page, not the table, scrolls in a short window', async ({ page }) => {
  await signInToCertificates(page, 'issuer@contoso.example');
  const table = page.getByRole('table', { name: 'Certificates' });
  await expect(table).not.toHaveAttribute('data-dense', /./);
  const request = page.waitForRequest((r) => r.url().includes('/certificates?') && r.url().includes('limit=25'));
  await page.getByLabel('Rows per page').selectOption('25');
  await request;
  await page.getByRole('switch', { name: 'Compact rows' }).check();
  await expect(table).toHaveAttribute('data-dense', 'true');

  await page.reload();
  await expect(page.getByLabel('Rows per page')).toHaveValue('25');
  await expect(page.getByRole('switch', { name: 'Compact rows' })).toBeChecked();
  await page.getByLabel('Organization sidebar').getByRole('link', { name: 'Members', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Members' })).toBeVisible();
  await expect(page.getByLabel('Rows per page')).toHaveValue('25');
  await expect(page.getByRole('table', { name: 'Members' })).toHaveAttribute('data-dense', 'true');

  // A short window: the page scrolls, not a box of the table's own (issue 34), and its last row is reached so.
  await page.getByLabel('Organization sidebar').getByRole('link', { name: 'Certificates', exact: true }).click();
  await page.getByRole('switch', { name: 'Compact rows' }).uncheck();
  await page.setViewportSize({ width: 1280, height: 420 });
  const region = page.getByRole('region', { name: 'Certificates' });
  await expect.poll(() => table.locator('tbody tr').count()).toBeGreaterThanOrEqual(4);
  expect(await region.evaluate((box) => box.scrollHeight - box.clientHeight)).toBeLessThanOrEqual(1);
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await expect(table.locator('tbody tr').last()).toBeInViewport();
});
