/**
 * CSV export end to end (issue 12 item 3, docs/decisions.md "CSV export"): the certificate list of the
 * demo seed, filtered and sorted, exported with its toolbar's button; the downloaded file's header row
 * and rows are the list's, in the screen's order; axe with the button. It only reads the seed (the
 * export's journal record goes to the organization's journal, which no other spec counts).
 */
import fs from 'node:fs';
import { parse } from 'csv-parse/sync';
import { expect, expectAccessible, signInToCertificates, test } from './support';

test('the certificate list exports its filtered, sorted rows as CSV', async ({ page }) => {
  await signInToCertificates(page, 'issuer@contoso.example');
  await page.getByRole('button', { name: 'Hide expired' }).click();
  await expect(page).toHaveURL(/[?&]hideExpired=true(&|$)/);
  await page.getByRole('button', { name: 'Until' }).click();
  await expect(page).toHaveURL(/[?&]sort=date_not_after(&|$)/);
  await expect(page.getByRole('columnheader', { name: 'Until' })).toHaveAttribute('aria-sort', 'ascending');
  const shown = page.locator('tbody tr th a');
  await expect(shown.first()).toBeVisible();
  const dns = await shown.allTextContents();
  expect(dns.length).toBeGreaterThanOrEqual(2);

  const exportButton = page.getByRole('button', { name: 'Export CSV' });
  await expectAccessible(page);
  const [download] = await Promise.all([page.waitForEvent('download'), exportButton.click()]);
  expect(download.suggestedFilename()).toMatch(/^certificates-\d{4}-\d{2}-\d{2}\.csv$/);
  const file = fs.readFileSync((await download.path())!);
  expect([...file.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const [header, ...rows]: string[][] = parse(file.toString('utf8'), { bom: true, record_delimiter: '\r\n' });
  expect(header).toEqual(['organization_id', 'organization_name', 'distinguished_name', 'approval', 'valid', 'expired', 'description', 'owner_member_id',
    'owner_name', 'date_not_before', 'date_not_after', 'date_approved', 'date_revoked', 'date_expiry_acknowledged', 'date_created']);
  // The screen shows the first page: the file holds it, in its order, and no expired row.
  expect(rows.slice(0, dns.length).map((r) => r[2])).toEqual(dns);
  expect(rows.every((r) => r[5] === 'false')).toBe(true);
  const untils = rows.map((r) => r[10]);
  expect(untils).toEqual([...untils].sort());
  await expect(exportButton).toBeEnabled();
});
