/**
 * CSV export end to end (issue 12 item 3, docs/decisions.md "CSV export"): the certificate list of the
 * demo seed, filtered and sorted, exported with its toolbar's button; the downloaded file's header row
 * and rows are the list's, in the screen's order; then the journal filtered on the export's record,
 * exported the same way; axe with the buttons. It changes nothing but the journal's LIST_EXPORTED
 * records, which no other spec's filter finds.
 */
import fs from 'node:fs';
import { parse } from 'csv-parse/sync';
import { answerTo, expect, expectAccessible, signInToCertificates, test } from './support';

test('the certificate list and the journal export their filtered, sorted rows as CSV', async ({ page }) => {
  await signInToCertificates(page, 'issuer@contoso.example');
  await page.getByRole('button', { name: 'Hide expired' }).click();
  await expect(page).toHaveURL(/[?&]hideExpired=true(&|$)/);
  const sorted = answerTo<Array<{ distinguished_name: string }>>(page, '/certificates', { hideExpired: 'true', sort: 'date_not_after' });
  await page.getByRole('button', { name: 'Until' }).click();
  await expect(page).toHaveURL(/[?&]sort=date_not_after(&|$)/);
  await expect(page.getByRole('columnheader', { name: 'Until' })).toHaveAttribute('aria-sort', 'ascending');
  // The header says the new order at once; the rows are the previous answer's until the sorted one arrives.
  const dns = (await sorted).map((c) => c.distinguished_name);
  expect(dns.length).toBeGreaterThanOrEqual(2);
  const shown = page.locator('tbody tr th a');
  await expect(shown).toHaveText(dns);

  const exportButton = page.getByRole('button', { name: 'Export CSV' });
  await expectAccessible(page);
  const [download] = await Promise.all([page.waitForEvent('download'), exportButton.click()]);
  expect(download.suggestedFilename()).toMatch(/^certificates-\d{4}-\d{2}-\d{2}\.csv$/);
  const file = fs.readFileSync((await download.path())!);
  expect([...file.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const [header, ...rows]: string[][] = parse(file.toString('utf8'), { bom: true, record_delimiter: '\r\n' });
  expect(header).toEqual(['organization_id', 'organization_name', 'distinguished_name', 'approval', 'valid', 'expired', 'description', 'owner_member_id',
    'owner_name', 'date_not_before', 'date_not_after', 'date_approved', 'date_revoked', 'date_expiry_acknowledged', 'date_created', 'fingerprint_sha256']);
  // The fingerprint, added last: each certificate's own, as openssl shows it.
  expect(rows.every((r) => /^([0-9A-F]{2}:){31}[0-9A-F]{2}$/.test(r[15]))).toBe(true);
  expect(new Set(rows.map((r) => r[15])).size).toBe(rows.length);
  // The screen shows the first page: the file holds it, in its order, and no expired row.
  expect(rows.slice(0, dns.length).map((r) => r[2])).toEqual(dns);
  expect(rows.every((r) => r[5] === 'false')).toBe(true);
  const untils = rows.map((r) => r[10]);
  expect(untils).toEqual([...untils].sort());
  await expect(exportButton).toBeEnabled();

  // The export is journaled, and the journal exports too: filtered on its reason, the file holds the rows shown.
  await page.getByLabel('Organization sidebar').getByRole('link', { name: 'Journal', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Journal' })).toBeVisible();
  await page.getByLabel('Filter by reason or message').fill('list_exported');
  // The unfiltered journal shows the export's record first too: only the filtered answer tells the rows apart.
  const filtered = answerTo<Array<{ message: string }>>(page, '/auditrecords', { filter: 'list_exported' });
  await page.getByRole('button', { name: 'Filter', exact: true }).click();
  await expect(page).toHaveURL(/[?&]filter=list_exported(&|$)/);
  const shownMessages = (await filtered).map((r) => r.message);
  expect(shownMessages[0]).toContain('Exported the certificates of');
  await expect(page.locator('tbody tr td[data-label="Message"]')).toHaveText(shownMessages);
  await expectAccessible(page);
  const [journal] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
  expect(journal.suggestedFilename()).toMatch(/^journal-\d{4}-\d{2}-\d{2}\.csv$/);
  const [journalHeader, ...records]: string[][] = parse(fs.readFileSync((await journal.path())!, 'utf8'), { bom: true, record_delimiter: '\r\n' });
  expect(journalHeader).toEqual(['record_id', 'date_created', 'reason', 'member_email', 'message']);
  expect(records.map((r) => r[4])).toEqual(shownMessages);
  expect(records.every((r) => r[2] === 'LIST_EXPORTED' && r[3] === 'issuer@contoso.example')).toBe(true);
});
