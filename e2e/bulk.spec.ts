/**
 * Bulk actions end to end (issue 12 item 4, "bulk-approve a selection"): the operator's approver
 * selects certificates of Contoso on its list and approves them with the count in the confirmation;
 * one approved meanwhile is refused in the per-item result; the rows show their new badges. Then
 * "all that match the filter" on the list, and on the pending tasks "all waiting" counted by the server
 * before confirming (then cancelled) and a rejection. Each test uploads
 * or requests the records it acts on. SHOTS_DIR saves the screens at laptop and phone width.
 */
import type { Page } from '@playwright/test';
import { apiAs, apiOf, expect, expectAccessible, row, shoot, signInToCertificates, test, toast, type Api, uploadContosoCertificates } from './support';


/** `count` certificates of Contoso by its issuer, valid for 90 days. */
const uploadCertificates = (issuer: Api, count: number) => uploadContosoCertificates(issuer, count, { prefix: 'bulk', description: 'Bulk test gateway', daysValid: 90 });

/** The approver on Contoso's certificates, filtered to the test's own. */
async function contosoCertificates(page: Page, tag: string, count: number) {
  await signInToCertificates(page, 'approver@operator.example');
  await page.getByRole('combobox', { name: 'Organization' }).click();
  await page.getByRole('option', { name: 'Contoso' }).click();
  await expect(page.getByRole('combobox', { name: 'Organization' })).toHaveValue('Contoso');
  await page.getByLabel('Filter by DN').fill(tag);
  await page.getByRole('button', { name: 'Filter', exact: true }).click();
  // Only the filtered answer says so: the test's rows may be on the unfiltered page too.
  await expect(page.getByText(`Showing certificates 1–${count} of ${count}`)).toBeVisible();
  await expect(row(page, tag)).toHaveCount(count);
}

const bar = (page: Page) => page.getByRole('region', { name: /^Bulk actions/ });

test('an approver bulk-approves a selection of certificates and sees per item what happened', async ({ page, newPage }) => {
  const issuer = await apiAs(newPage, 'issuer@contoso.example');
  const { tag, dns } = await uploadCertificates(issuer, 3);
  await contosoCertificates(page, tag, 3);
  for (const dn of dns) await expect(row(page, dn).getByText('Not approved')).toBeVisible();

  await page.getByRole('checkbox', { name: 'Select all on this page' }).check();
  for (const dn of dns) await expect(page.getByRole('checkbox', { name: `Select ${dn}` })).toBeChecked();
  await expect(bar(page).getByText('3 selected')).toBeVisible();
  // Only what the selected rows allow: Not approved ones can be approved or revoked, not acknowledged.
  await expect(bar(page).getByRole('button', { name: 'Approve (3)' })).toBeVisible();
  await expect(bar(page).getByRole('button', { name: /^Acknowledge expiry/ })).toHaveCount(0);
  await expectAccessible(page);
  await shoot(page, 'bulk-selected');

  // Someone approves one of them meanwhile: it is refused, the others go on.
  const approver = await apiOf(page);
  await approver.call('POST', `/api/approve/${encodeURIComponent(dns[1])}`);

  await bar(page).getByRole('button', { name: 'Approve (3)' }).click();
  const confirm = page.getByRole('dialog', { name: 'Approve 3 certificates?' });
  await expect(confirm).toBeVisible();
  await confirm.getByRole('button', { name: 'Approve 3' }).click();

  const result = page.getByRole('dialog', { name: 'Approve: the result' });
  await expect(result.getByText('2 certificates approved, 1 refused.')).toBeVisible();
  const items = result.getByRole('listitem');
  await expect(items).toHaveCount(3);
  // The refusal first, with its reason.
  await expect(items.first()).toContainText('Refused');
  await expect(items.first()).toContainText(dns[1]);
  await expect(items.first()).toContainText('The certificate is already approved.');
  await expect(result.getByRole('listitem').filter({ hasText: dns[0] })).toContainText('Done');
  await expect(toast(page, '2 certificates approved.')).toBeVisible();
  await expectAccessible(page);
  await shoot(page, 'bulk-result');

  await result.getByRole('button', { name: 'Close' }).last().click();
  await expect(result).toHaveCount(0);
  for (const dn of dns) await expect(row(page, dn).getByText('Approved', { exact: true })).toBeVisible();
  await expect(bar(page)).toHaveCount(0);
});

test('rows chosen while the filtered answer is still on its way are dropped when it comes: no action reaches a row it does not show', async ({ page, newPage }) => {
  const issuer = await apiAs(newPage, 'issuer@contoso.example');
  const { tag, dns } = await uploadCertificates(issuer, 2);
  await signInToCertificates(page, 'approver@operator.example');
  const listPath = `/api/organizations/${issuer.organizationId}/certificates`;
  const contoso = page.waitForResponse((response) => new URL(response.url()).pathname === listPath);
  await page.getByRole('combobox', { name: 'Organization' }).click();
  await page.getByRole('option', { name: 'Contoso' }).click();
  const total = Number((await contoso).headers()['x-total-count']);
  await expect(page.getByText(new RegExp(`^Showing certificates 1–\\d+ of ${total.toLocaleString('en-US')}$`))).toBeVisible();
  const shownBefore = await page.getByRole('checkbox', { name: /^Select CN=/ }).count();
  expect(shownBefore).toBeGreaterThan(2);

  // The filtered answer is held back, as on a slow network, until the old rows have been chosen.
  const isFiltered = (url: URL) => url.pathname === listPath && url.search.includes(tag);
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(isFiltered, async (route) => {
    await held;
    await route.continue();
  });
  const filtered = page.waitForResponse((response) => isFiltered(new URL(response.url())));
  await page.getByLabel('Filter by DN').fill(tag);
  await page.getByRole('button', { name: 'Filter', exact: true }).click();
  await page.getByRole('checkbox', { name: 'Select all on this page' }).check();
  await expect(bar(page).getByText(`${shownBefore} selected`)).toBeVisible();
  release();
  await filtered;
  await expect(page.getByText('Showing certificates 1–2 of 2')).toBeVisible();
  await expect(bar(page)).toHaveCount(0);
  for (const dn of dns) await expect(page.getByRole('checkbox', { name: `Select ${dn}` })).not.toBeChecked();
  // Chosen now, on the rows shown, they are what the bar counts.
  await page.getByRole('checkbox', { name: 'Select all on this page' }).check();
  await expect(bar(page).getByText('2 selected')).toBeVisible();
  await expect(bar(page).getByRole('button', { name: 'Approve (2)' })).toBeVisible();
});

test('"all that match the filter" counts on the server first, then revokes them all', async ({ page, newPage }) => {
  const issuer = await apiAs(newPage, 'issuer@contoso.example');
  const { tag, dns } = await uploadCertificates(issuer, 2);
  await contosoCertificates(page, tag, 2);

  await page.getByRole('checkbox', { name: `Select ${dns[0]}` }).check();
  await expect(bar(page).getByText('1 selected')).toBeVisible();
  await bar(page).getByRole('button', { name: 'Select all 2 that match the filter' }).click();
  await expect(bar(page).getByText('All 2 certificates that match are selected')).toBeVisible();
  for (const dn of dns) await expect(page.getByRole('checkbox', { name: `Select ${dn}` })).toBeChecked();

  await bar(page).getByRole('button', { name: 'Revoke' }).click();
  const confirm = page.getByRole('dialog', { name: 'Revoke 2 certificates?' });
  await expect(confirm).toContainText('Of the 2 certificates that match, 2 can be revoked by you.');
  await confirm.getByRole('button', { name: 'Revoke 2' }).click();
  const result = page.getByRole('dialog', { name: 'Revoke: the result' });
  await expect(result.getByText('2 certificates revoked.')).toBeVisible();
  await result.getByRole('button', { name: 'Close' }).last().click();
  for (const dn of dns) await expect(row(page, dn).getByText('Revoked', { exact: true })).toBeVisible();
});

test('the pending tasks count all waiting before acting, and reject selected license requests', async ({ page, newPage }) => {
  const issuer = await apiAs(newPage, 'issuer@contoso.example');
  const name = `Bulk request ${Date.now()}`;
  await issuer.call('POST', `/api/organizations/${issuer.organizationId}/licenses`, { data: { license_name: name, license_scope: 'LAB', days_valid: 30 } });

  await signInToCertificates(page, 'supervisor@operator.example');
  await page.goto('/admin/pending-tasks');
  await expect(page.getByRole('heading', { name: 'Pending approvals' })).toBeVisible();
  // The newest request first: Created, descending.
  const section = page.locator('section[aria-labelledby="pending-approvals-licenses"]');
  await section.getByRole('button', { name: 'Created' }).click();
  await expect(page).toHaveURL(/approveLicensesSort=-date_created/);
  await section.getByRole('checkbox', { name: `Select ${name}` }).check();
  const licenseBar = section.getByRole('region', { name: 'Bulk actions: pending licenses' });
  await expect(licenseBar.getByText('1 selected')).toBeVisible();
  await expectAccessible(page);
  await shoot(page, 'bulk-pending');

  // "All waiting": the server counts them before anything is done; cancelled, nothing changes.
  const selectAll = licenseBar.getByRole('button', { name: /^Select all [\d,]+ waiting$/ });
  const waiting = Number((await selectAll.textContent())!.replace(/\D/g, ''));
  expect(waiting).toBeGreaterThanOrEqual(1);
  await selectAll.click();
  await expect(licenseBar.getByText(`All ${waiting.toLocaleString('en-US')} license${waiting === 1 ? '' : 's'} that match are selected`)).toBeVisible();
  await expect(section.getByRole('checkbox', { name: `Select ${name}` })).toBeChecked();
  await licenseBar.getByRole('button', { name: 'Reject', exact: true }).click();
  const all = page.getByRole('dialog', { name: /^Reject [\d,]+ licenses?\?$/ });
  await expect(all).toContainText(/Of the [\d,]+ licenses? that match, [\d,]+ can be rejected by you\./);
  await expectAccessible(page);
  await all.getByRole('button', { name: 'Cancel' }).click();
  await expect(all).toHaveCount(0);
  await expect(section.getByRole('row').filter({ hasText: name })).toHaveCount(1);
  await licenseBar.getByRole('button', { name: 'Clear selection' }).click();
  await expect(licenseBar).toHaveCount(0);
  await section.getByRole('checkbox', { name: `Select ${name}` }).check();
  await expect(licenseBar.getByText('1 selected')).toBeVisible();

  await licenseBar.getByRole('button', { name: 'Reject (1)' }).click();
  await page.getByRole('dialog', { name: 'Reject 1 license?' }).getByRole('button', { name: 'Reject 1' }).click();
  const result = page.getByRole('dialog', { name: 'Reject: the result' });
  await expect(result.getByText('1 license rejected.')).toBeVisible();
  await expect(result.getByRole('listitem').filter({ hasText: name })).toContainText('Done');
  await result.getByRole('button', { name: 'Close' }).last().click();
  // No longer waiting.
  await expect(section.getByRole('row').filter({ hasText: name })).toHaveCount(0);
});
