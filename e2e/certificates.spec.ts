/**
 * Certificates end to end (SPEC.md §2): upload by an issuer, read-only for a member, approve,
 * revoke and remove by the operator's approver, the filters on the demo seed, a refused upload,
 * the admin list. Each test works on a certificate of its own or reads the seed. Set SHOTS_DIR to
 * also save screenshots of the three screens at two widths.
 */
import fs from 'node:fs/promises';
import { X509Certificate } from 'node:crypto';
import type { Page } from '@playwright/test';
import { makeCertificate } from '../scripts/make-certificate';
import { apiAs, apiOf, expect, expectAccessible, organizationIdOf, row, shoot, signInToCertificates, test, toast } from './support';

const DAY = 86_400_000;


async function filterByDn(page: Page, text: string) {
  await page.getByLabel('Filter by DN').fill(text);
  await page.getByRole('button', { name: 'Filter', exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`[?&]name=${encodeURIComponent(text)}`));
}

async function openContosoAsApprover(page: Page) {
  await signInToCertificates(page, 'approver@operator.example');
  await page.getByRole('combobox', { name: 'Organization' }).click();
  await page.getByRole('option', { name: 'Contoso' }).click();
  await expect(page.getByRole('combobox', { name: 'Organization' })).toHaveValue('Contoso');
  await expect(row(page, 'CN=gw-berlin.')).toHaveCount(1);
}

/**
 * A certificate of Contoso of this test's own, valid for 90 days. Its DN has a space, a slash and
 * a non-ASCII letter: it must survive the URL both ways.
 */
async function newCertificate() {
  const cn = `e2e-${Date.now()}-${Math.random().toString(36).slice(2, 7)}`;
  const { pem } = await makeCertificate({
    subject: `C=DE, O=Contoso, OU=E2E / Tests, CN=${cn} Prüfstand.contoso.example`,
    notBefore: new Date(Date.now() - DAY),
    notAfter: new Date(Date.now() + 90 * DAY),
  });
  return { cn, pem, dn: `CN=${cn} Prüfstand.contoso.example,OU=E2E / Tests,O=Contoso,C=DE` };
}

test.describe('a certificate from upload to removal', () => {
  test('an issuer uploads it and sees it Not approved', async ({ page }) => {
    const { cn, pem, dn } = await newCertificate();
    await signInToCertificates(page, 'issuer@contoso.example');
    await page.getByRole('link', { name: 'Upload certificate' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Upload certificate' })).toBeVisible();
    await expect(page.getByLabel('Certificate', { exact: true })).toHaveAttribute('rows', '30');
    await expectAccessible(page);
    await shoot(page, 'upload');

    await page.getByLabel('Description', { exact: true }).fill('End-to-end test gateway');
    await page.getByLabel('Certificate', { exact: true }).fill(pem);
    await page.getByRole('button', { name: 'Upload certificate' }).click();

    await expect(toast(page, `Certificate ${dn} uploaded.`)).toBeVisible();
    await expect(page).toHaveURL(/\/organizations\/[^/]+\/certificates$/);
    await filterByDn(page, cn);
    const uploaded = row(page, cn);
    await expect(uploaded).toHaveCount(1);
    await expect(uploaded).toContainText('Not approved');
    await expect(uploaded).toContainText('Valid');
    await expect(uploaded).toContainText('End-to-end test gateway');
    await expect(uploaded).toContainText('Isla Contoso');

    // Its details open from the list, with the DN as heading.
    await uploaded.getByRole('link', { name: dn }).click();
    await expect(page.getByRole('heading', { level: 1, name: dn })).toBeVisible();
    // An issuer may not approve, revoke or remove, nor edit the description.
    await expect(page.getByRole('button', { name: 'Approve' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Update' })).toHaveCount(0);
  });

  test('a member sees one but can change nothing', async ({ page }) => {
    // The seed's Hamburg gateway waits for approval: the state with the most actions for others.
    const dn = 'CN=gw-hamburg.contoso.example,OU=Gateways,O=Contoso,C=DE';
    await signInToCertificates(page, 'member@contoso.example');
    await expect(page.getByRole('link', { name: 'Upload certificate' })).toHaveCount(0);
    await filterByDn(page, 'gw-hamburg');
    await row(page, 'gw-hamburg').getByRole('link', { name: dn }).click();
    await expect(page.getByRole('heading', { level: 1, name: dn })).toBeVisible();
    await expect(page.getByText('Hamburg gateway (waiting for approval)')).toBeVisible();
    await expect(page.getByRole('textbox', { name: 'Description' })).toHaveCount(0);
    for (const name of ['Remove', 'Acknowledge expiry', 'Revoke', 'Approve', 'Update']) {
      await expect(page.getByRole('button', { name, exact: true })).toHaveCount(0);
    }
    await expectAccessible(page);
  });

  test('the approver of the operator approves, revokes and removes it', async ({ page, newPage }) => {
    const { cn, pem, dn } = await newCertificate();
    const issuer = await apiAs(newPage, 'issuer@contoso.example');
    await issuer.call('POST', `/api/organizations/${issuer.organizationId}/certificates`, { data: { description: 'End-to-end test gateway', certificate: pem } });

    await openContosoAsApprover(page);
    // Opened directly: there is no page of the app to go back to, so the action ends on the list.
    const list = `/organizations/${organizationIdOf(page)}/certificates`;
    await page.goto(`${list}/${encodeURIComponent(dn)}`);
    await expect(page.getByRole('heading', { level: 1, name: dn })).toBeVisible();
    // Not approved: Approve and Revoke; not Remove (only revoked) nor Acknowledge (only approved).
    await expect(page.getByRole('button', { name: 'Approve' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Revoke' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Remove' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Acknowledge expiry' })).toHaveCount(0);

    // The description is editable for an approver.
    const description = page.getByRole('textbox', { name: 'Description' });
    await expect(description).toHaveValue('End-to-end test gateway');
    await description.fill('Approved in the end-to-end test');
    await page.getByRole('button', { name: 'Update' }).click();
    await expect(toast(page, 'Description updated.')).toBeVisible();
    await expect(description).toHaveValue('Approved in the end-to-end test');

    await page.getByRole('button', { name: 'Approve' }).click();
    await expect(toast(page, 'Certificate approved.')).toBeVisible();
    await expect(page).toHaveURL(list);
    await filterByDn(page, cn);
    await expect(row(page, cn)).toContainText('Approved');
    await expect(row(page, cn)).toContainText('Approved in the end-to-end test');

    // Opened from the list, an action goes back one page: the filtered list.
    await row(page, cn).getByRole('link', { name: dn }).click();
    await expect(page.getByText('April Approver', { exact: true })).toBeVisible();
    await page.getByRole('button', { name: 'Revoke' }).click();
    const revoke = page.getByRole('dialog', { name: 'Revoke certificate?' });
    await expect(revoke).toBeVisible();
    await expectAccessible(page);
    await revoke.getByRole('button', { name: 'Revoke' }).click();
    await expect(toast(page, 'Certificate revoked.')).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`/certificates\\?name=${cn}$`));
    await expect(row(page, cn)).toContainText('Revoked');

    await row(page, cn).getByRole('link', { name: dn }).click();
    await expect(page.getByRole('button', { name: 'Approve' })).toHaveCount(0);
    // Cancel leaves it as it is.
    await page.getByRole('button', { name: 'Remove' }).click();
    await page.getByRole('dialog', { name: 'Remove certificate?' }).getByRole('button', { name: 'Cancel' }).click();
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect(page.getByRole('heading', { level: 1, name: dn })).toBeVisible();
    await page.getByRole('button', { name: 'Remove' }).click();
    await page.getByRole('dialog', { name: 'Remove certificate?' }).getByRole('button', { name: 'Remove' }).click();
    await expect(toast(page, 'Certificate removed.')).toBeVisible();
    await expect(page.getByText('No certificates found.')).toBeVisible();
  });
});

test("an open details page turns Not valid at the certificate's not-after, without a reload", async ({ page }) => {
  await signInToCertificates(page, 'issuer@contoso.example');
  const issuer = await apiOf(page);
  // Valid for 12 more seconds (X.509 times have whole seconds): time to open it (2–4 s with the machine busy) and watch.
  const notAfter = new Date(Math.ceil((Date.now() + 12_000) / 1000) * 1000);
  const cn = `e2e-expiring-${Date.now()}`;
  const { pem } = await makeCertificate({ subject: `C=DE, O=Contoso, OU=E2E, CN=${cn}`, notBefore: new Date(Date.now() - DAY), notAfter });
  await issuer.call('POST', `/api/organizations/${issuer.organizationId}/certificates`, { data: { description: 'Expires during the test', certificate: pem } });

  await page.goto(`/organizations/${issuer.organizationId}/certificates/${encodeURIComponent(`CN=${cn},OU=E2E,O=Contoso,C=DE`)}`);
  const badges = page.getByRole('main');
  await expect(badges.getByText('Valid', { exact: true })).toBeVisible();
  // What a person sees when the moment comes: the badge changes by itself.
  await expect(badges.getByText('Not valid', { exact: true })).toBeVisible({ timeout: notAfter.getTime() - Date.now() + 10_000 });
  await expect(badges.getByText('Valid', { exact: true })).toHaveCount(0);
  expect(Date.now()).toBeGreaterThanOrEqual(notAfter.getTime());
});

test('a list filtered "hide expired" drops a certificate at its not-after and counts one less, without a reload', async ({ page }) => {
  await signInToCertificates(page, 'issuer@contoso.example');
  const issuer = await apiOf(page);
  // Two of this test's own: one expires in 12 seconds (X.509 times have whole seconds), one stays valid.
  const unit = `E2E Drop ${Date.now()}`;
  const notAfter = new Date(Math.ceil((Date.now() + 12_000) / 1000) * 1000);
  for (const [cn, end] of [['expiring', notAfter], ['staying', new Date(Date.now() + 90 * DAY)]] as const) {
    const { pem } = await makeCertificate({ subject: `C=DE, O=Contoso, OU=${unit}, CN=${cn}`, notBefore: new Date(Date.now() - DAY), notAfter: end });
    await issuer.call('POST', `/api/organizations/${issuer.organizationId}/certificates`, { data: { description: 'Filtered on time', certificate: pem } });
  }

  await page.goto(`/organizations/${issuer.organizationId}/certificates?hideExpired=true&name=${encodeURIComponent(unit)}`);
  await expect(page.getByText('Showing certificates 1–2 of 2')).toBeVisible();
  await expect(row(page, 'CN=expiring,')).toHaveCount(1);
  // Nobody touches the page: at the instant the server named, the list asks again and the row is gone.
  await expect(row(page, 'CN=expiring,')).toHaveCount(0, { timeout: notAfter.getTime() - Date.now() + 10_000 });
  expect(Date.now()).toBeGreaterThanOrEqual(notAfter.getTime());
  await expect(page.getByText('Showing certificates 1–1 of 1')).toBeVisible();
  await expect(row(page, 'CN=staying,')).toHaveCount(1);
});

test.describe('the certificate list', () => {
  const SEED = ['gw-hamburg', 'gw-berlin', 'gw-munich', 'lab-old', 'lab-leaked'];

  async function expectRows(page: Page, shown: string[]) {
    // All rows in one look: row by row, some could be seen in the previous answer (kept until the new one
    // arrives) and the rest in the new one, and the check pass on a mix that no answer was.
    const counts = async () => {
      const rows = await page.getByRole('row').allTextContents();
      return Object.fromEntries(SEED.map((name) => [name, rows.filter((text) => text.includes(`CN=${name}.`)).length]));
    };
    await expect.poll(counts).toEqual(Object.fromEntries(SEED.map((name) => [name, shown.includes(name) ? 1 : 0])));
  }

  test('shows the badges, and the toggles and the DN filter narrow it', async ({ page }) => {
    await signInToCertificates(page, 'issuer@contoso.example');
    await expectRows(page, SEED);
    await expect(row(page, 'CN=gw-hamburg.')).toContainText('Not approved');
    await expect(row(page, 'CN=gw-berlin.')).toContainText('Approved');
    await expect(row(page, 'CN=gw-berlin.')).toContainText('Valid');
    await expect(row(page, 'CN=gw-munich.')).toContainText('Not valid');
    await expect(row(page, 'CN=lab-old.')).toContainText('Expiry acknowledged');
    await expect(row(page, 'CN=lab-leaked.')).toContainText('Revoked');
    await expectAccessible(page);
    await shoot(page, 'list');

    const hideExpired = page.getByRole('button', { name: 'Hide expired' });
    const hideRequests = page.getByRole('button', { name: 'Hide requests' });
    const hideValid = page.getByRole('button', { name: 'Hide valid' });
    await expect(hideExpired).toHaveAttribute('aria-pressed', 'false');

    await hideExpired.click();
    await expect(hideExpired).toHaveAttribute('aria-pressed', 'true');
    await expect(page).toHaveURL(/hideExpired=true/);
    await expectRows(page, ['gw-hamburg', 'gw-berlin', 'lab-leaked']);

    await hideRequests.click();
    await expectRows(page, ['gw-berlin', 'lab-leaked']);

    await hideValid.click();
    await expectRows(page, []);

    // The filters are in the URL: a reload keeps them, Back undoes the last one.
    await page.reload();
    await expect(page.getByRole('button', { name: 'Hide valid' })).toHaveAttribute('aria-pressed', 'true');
    await expectRows(page, []);
    await page.goBack();
    await expect(page.getByRole('button', { name: 'Hide valid' })).toHaveAttribute('aria-pressed', 'false');
    await expectRows(page, ['gw-berlin', 'lab-leaked']);

    // The DN filter: applied with Enter, and with the Filter button.
    await page.getByRole('button', { name: 'Hide requests' }).click();
    await page.getByRole('button', { name: 'Hide expired' }).click();
    await page.getByLabel('Filter by DN').fill('OU=Gateways');
    await page.getByLabel('Filter by DN').press('Enter');
    await expectRows(page, ['gw-hamburg', 'gw-berlin', 'gw-munich']);
    await filterByDn(page, 'munich');
    await expectRows(page, ['gw-munich']);
    await filterByDn(page, 'no-such-certificate');
    await expect(page.getByText('No certificates found.')).toBeVisible();
    await page.goBack();
    await expect(page.getByLabel('Filter by DN')).toHaveValue('munich');
    await expectRows(page, ['gw-munich']);
  });

  test('an upload that is no certificate shows the server message under the field and stores nothing', async ({ page, browserProblems }) => {
    browserProblems.expectRefusal(400, /^\/api\/organizations\/[^/]+\/certificates$/);
    await signInToCertificates(page, 'issuer@contoso.example');
    const list = page.url();
    await page.getByRole('link', { name: 'Upload certificate' }).click();
    const marker = `garbage ${Date.now()}`;
    await page.getByLabel('Description', { exact: true }).fill(marker);
    await page.getByLabel('Certificate', { exact: true }).fill('this is not a certificate');
    await page.getByRole('button', { name: 'Upload certificate' }).click();
    // The server's 400 names the field: its message shows under it, focused, and not as a toast too.
    const certificate = page.getByLabel('Certificate', { exact: true });
    await expect(certificate).toHaveAttribute('aria-invalid', 'true');
    await expect(certificate).toHaveAccessibleDescription(/PEM form/);
    await expect(certificate).toBeFocused();
    await expect(toast(page, /PEM form/)).toHaveCount(0);
    await expect(page.getByLabel('Description', { exact: true })).not.toHaveAttribute('aria-invalid', 'true');
    await expectAccessible(page);
    await expect(page).toHaveURL(/\/certificates\/upload$/);
    await expect(page.getByLabel('Certificate', { exact: true })).toHaveValue('this is not a certificate');
    await expect(page.getByLabel('Description', { exact: true })).toHaveValue(marker);

    await page.goto(list);
    await expect(row(page, 'CN=gw-berlin.')).toHaveCount(1);
    await expect(page.getByText(marker)).toHaveCount(0);
  });

  test('details of an approved certificate show its data and the approver actions', async ({ page }) => {
    await openContosoAsApprover(page);
    const organizationId = organizationIdOf(page);
    await row(page, 'CN=gw-berlin.').getByRole('link').click();
    const dn = 'CN=gw-berlin.contoso.example,OU=Gateways,O=Contoso,C=DE';
    await expect(page.getByRole('heading', { level: 1, name: dn })).toBeVisible();
    await expect(page).toHaveURL(`/organizations/${organizationId}/certificates/${encodeURIComponent(dn)}`);
    for (const label of ['Valid from', 'Valid to', 'Approved on', 'Approved by', 'Owner', 'Issuer', 'SHA-256 fingerprint', 'Alternative names', 'Public key', 'Serial number', 'Algorithm', 'Version', 'Signature']) {
      await expect(page.getByText(label, { exact: true })).toBeVisible();
    }
    await expect(page.getByText('ecdsa-with-SHA256')).toBeVisible();
    await expect(page.getByText('EC P-256', { exact: true })).toBeVisible();
    await expect(page.getByLabel('Certificate PEM')).toHaveValue(/^-----BEGIN CERTIFICATE-----/);
    await expect(page.getByRole('button', { name: 'Revoke' })).toBeVisible();
    // Valid for 11 more months: nothing to acknowledge yet (Acknowledge expiry comes with the notice window, first-day.spec.ts).
    for (const name of ['Approve', 'Remove', 'Acknowledge expiry']) await expect(page.getByRole('button', { name })).toHaveCount(0);
    await expectAccessible(page);
    await shoot(page, 'details');
  });

  test('details show what operators check, the fingerprint wrapping on a phone, and download the PEM', async ({ page }) => {
    // An RSA certificate of Contoso with alternative names of every kind, uploaded for this test.
    await signInToCertificates(page, 'issuer@contoso.example');
    const api = await apiOf(page);
    const cn = `e2e-details-${Date.now()}-${Math.random().toString(36).slice(2, 7)}.contoso.example`;
    const { pem } = await makeCertificate({
      subject: `O=Contoso, CN=${cn}`, key: 'RSA 2048', notBefore: new Date(Date.now() - DAY), notAfter: new Date(Date.now() + 90 * DAY),
      alternativeNames: [{ type: 'dns', value: cn }, { type: 'ip', value: '192.0.2.44' }, { type: 'email', value: 'ops@contoso.example' }, { type: 'url', value: 'https://contoso.example/gw' }],
    });
    const uploaded = await api.call<{ distinguished_name: string; certificate_pem: string }>('POST', `/api/organizations/${api.organizationId}/certificates`, { data: { certificate: pem } });
    const fingerprint = new X509Certificate(pem).fingerprint256;

    await page.goto(`/organizations/${api.organizationId}/certificates/${encodeURIComponent(uploaded.distinguished_name)}`);
    await expect(page.getByRole('heading', { level: 1, name: uploaded.distinguished_name })).toBeVisible();
    const identity = page.getByRole('region', { name: 'Issuer and identity' });
    await expect(identity.getByText(fingerprint, { exact: true })).toBeVisible();
    for (const text of [`O=Contoso`, 'RSA 2048', `DNS: ${cn}`, 'IP: 192.0.2.44', 'email: ops@contoso.example', 'URI: https://contoso.example/gw']) {
      await expect(identity).toContainText(text);
    }
    await expect(identity.getByRole('button', { name: 'Copy fingerprint' })).toBeVisible();
    await expectAccessible(page);

    // The PEM the portal holds, as a file named after the common name.
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download PEM' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe(`${cn}.pem`);
    expect(await fs.readFile(await file.path(), 'utf8')).toBe(uploaded.certificate_pem);

    // On a phone the long values wrap: nothing sticks out of the page, the fingerprint stays inside its section.
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(identity.getByText(fingerprint, { exact: true })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true);
    const [section, value] = [await identity.boundingBox(), await identity.getByText(fingerprint, { exact: true }).boundingBox()];
    expect(value!.x + value!.width).toBeLessThanOrEqual(section!.x + section!.width);
    await expectAccessible(page);
    await shoot(page, 'details-identity');
  });

  test('the admin list spans organizations and opens organization-scoped details', async ({ page }) => {
    await signInToCertificates(page, 'supervisor@operator.example');
    await page.goto('/admin/certificates');
    await expect(page.getByRole('heading', { level: 1, name: 'Certificates' })).toBeVisible();
    await expect(page.getByRole('columnheader', { name: 'Organization' })).toBeVisible();
    await expect(row(page, 'CN=edge-1.')).toContainText('Northwind Networks');
    await expect(row(page, 'CN=gw-berlin.')).toContainText('Contoso');
    await expect(page.getByRole('link', { name: 'Upload certificate' })).toHaveCount(0);
    await expectAccessible(page);
    await shoot(page, 'admin-list');
    await row(page, 'CN=edge-1.').getByRole('link').click();
    await expect(page).toHaveURL(/\/organizations\/[^/]+\/certificates\/CN%3Dedge-1/);
    await expect(page.getByRole('heading', { level: 1, name: /^CN=edge-1\.northwind\.example/ })).toBeVisible();
    await expect(page.getByRole('combobox', { name: 'Organization' })).toHaveValue('Northwind Networks');
  });
});
