/**
 * The pending tasks' CSV export end to end (docs/decisions.md "CSV export"): on Pending Tasks each
 * list has its own Export CSV; the file of the expired licenses, sorted on the screen by name, holds
 * the rows shown in the screen's order, with the license exports' columns. It changes nothing but
 * the journal's LIST_EXPORTED records. Set SHOTS_DIR to also save screenshots at two widths.
 */
import fs from 'node:fs';
import { parse } from 'csv-parse/sync';
import { answerTo, expect, expectAccessible, shoot, signInToCertificates, test } from './support';

const LICENSE_HEADER = ['organization_id', 'organization_name', 'license_id', 'license_name', 'license_scope', 'approval', 'valid', 'expired', 'days_left',
  'extension', 'date_valid_from', 'days_valid', 'date_valid_until', 'time_zone', 'note', 'date_approved', 'date_rejected', 'date_expiry_acknowledged',
  'extended_by_license_id', 'extended_by_license_name', 'date_created'];

test('each pending list exports its rows in the order shown', async ({ page }) => {
  await signInToCertificates(page, 'supervisor@operator.example');
  await page.goto('/admin/pending-tasks');
  await expect(page.getByRole('heading', { level: 1, name: 'Pending Tasks' })).toBeVisible();
  const expired = page.getByRole('region', { name: 'Expired resources' });
  const licenses = expired.getByRole('region', { name: /^Licenses \(\d+\)$/ });
  await expect(licenses.getByRole('table').getByRole('link').first()).toBeVisible();
  // One button per list, each named for its list.
  for (const list of ['certificate approvals', 'license approvals', 'expired certificates', 'expired licenses']) {
    await expect(page.getByRole('button', { name: `Export CSV: ${list}` })).toHaveCount(1);
  }

  const sorted = answerTo<{ licenses: Array<{ license_name: string }> }>(page, '/api/acknowledge', { licensesSort: 'license_name' });
  await licenses.getByRole('button', { name: 'Name' }).click();
  await expect(page).toHaveURL(/[?&]acknowledgeLicensesSort=license_name(&|$)/);
  await expect(licenses.getByRole('columnheader', { name: 'Name' })).toHaveAttribute('aria-sort', 'ascending');
  // The header says the order at once; the rows are the previous answer's until the sorted one arrives.
  const names = (await sorted).licenses.map((l) => l.license_name);
  await expect(licenses.getByRole('table').getByRole('link')).toHaveText(names);
  await expectAccessible(page);
  await shoot(page, 'pending-export');

  const [download] = await Promise.all([page.waitForEvent('download'), licenses.getByRole('button', { name: 'Export CSV: expired licenses' }).click()]);
  expect(download.suggestedFilename()).toMatch(/^pending-expired-licenses-\d{4}-\d{2}-\d{2}\.csv$/);
  const [header, ...rows]: string[][] = parse(fs.readFileSync((await download.path())!, 'utf8'), { bom: true, record_delimiter: '\r\n' });
  expect(header).toEqual(LICENSE_HEADER);
  expect(rows.slice(0, names.length).map((r) => r[3])).toEqual(names);
  expect(rows.every((r) => r[7] === 'true' && r[16] === '')).toBe(true);
});
