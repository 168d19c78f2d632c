/**
 * Bulk certificate upload end to end (issue 12 item 5, docs/decisions.md "Bulk upload"): an issuer
 * pastes several certificates, one of them already in the portal, and sees the answer per
 * certificate; the new ones are in the list. Files read with the file picker fill the text area.
 * Set SHOTS_DIR to also save screenshots of the result at two widths.
 */
import { makeCertificate } from '../scripts/make-certificate';
import { apiOf, expect, expectAccessible, row, shoot, signInToCertificates, test, toast } from './support';

const DAY = 86_400_000;

/** A new certificate of Contoso for this test alone, valid for 90 days. */
async function newCertificate(label: string) {
  const cn = `bulk-${label}-${Date.now()}-${Math.random().toString(36).slice(2, 7)}.contoso.example`;
  const { pem } = await makeCertificate({ subject: `C=DE, O=Contoso, OU=E2E Bulk, CN=${cn}`, notBefore: new Date(Date.now() - DAY), notAfter: new Date(Date.now() + 90 * DAY) });
  return { cn, pem, dn: `CN=${cn},OU=E2E Bulk,O=Contoso,C=DE` };
}

test('an issuer pastes three certificates, one already in the portal, and sees each one\'s result', async ({ page }) => {
  const [first, second, existing] = [await newCertificate('one'), await newCertificate('two'), await newCertificate('old')];
  await signInToCertificates(page, 'issuer@contoso.example');
  // The one already in the portal, uploaded before with the issuer's own token.
  const api = await apiOf(page);
  await api.call('POST', `/api/organizations/${api.organizationId}/certificates`, { data: { description: 'Uploaded before', certificate: existing.pem } });

  await page.getByRole('link', { name: 'Upload certificate' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Upload certificate' })).toBeVisible();
  await page.getByLabel('Description', { exact: true }).fill('Bulk rollout');
  await page.getByLabel('Certificate', { exact: true }).fill([`# ${first.cn}`, first.pem, existing.pem, second.pem].join('\n'));
  await expect(page.getByRole('button', { name: 'Upload 3 certificates' })).toBeVisible();
  await expectAccessible(page);
  await shoot(page, 'bulk-upload-form');
  await page.getByRole('button', { name: 'Upload 3 certificates' }).click();

  await expect(page.getByRole('heading', { name: '2 uploaded, 1 refused' })).toBeVisible();
  await expect(toast(page, 'Bulk upload: 2 uploaded, 1 refused.')).toBeVisible();
  const results = page.getByRole('region', { name: 'Uploaded and refused certificates' });
  for (const [position, certificate] of [[1, first], [3, second]] as const) {
    const uploaded = results.getByRole('row').filter({ hasText: certificate.cn });
    await expect(uploaded).toContainText(`#${position}`);
    await expect(uploaded).toContainText('Uploaded');
    await expect(uploaded).toContainText('Waits for approval.');
    await expect(uploaded.getByRole('link', { name: certificate.dn })).toBeVisible();
  }
  const refused = results.getByRole('row').filter({ hasText: existing.cn });
  await expect(refused).toContainText('#2');
  await expect(refused).toContainText('Refused');
  await expect(refused).toContainText(`A certificate with the distinguished name ${existing.dn} is already in the portal.`);
  // Refused: no link to details (they are someone else's upload, or none at all).
  await expect(refused.getByRole('link')).toHaveCount(0);
  await expectAccessible(page);
  await shoot(page, 'bulk-upload-result');

  // The new ones are in the list, waiting for approval, with the description given to all.
  await page.getByRole('link', { name: 'Go to the certificates' }).click();
  await expect(page).toHaveURL(/\/organizations\/[^/]+\/certificates$/);
  await page.getByLabel('Filter by DN').fill('OU=E2E Bulk');
  await page.getByRole('button', { name: 'Filter', exact: true }).click();
  for (const certificate of [first, second]) {
    const listed = row(page, certificate.cn);
    await expect(listed).toHaveCount(1);
    await expect(listed).toContainText('Not approved');
    await expect(listed).toContainText('Bulk rollout');
  }
  await expect(row(page, existing.cn)).toContainText('Uploaded before');
});

test('certificates read from several files fill the text area, and one certificate is still the single upload', async ({ page }) => {
  const [one, two] = [await newCertificate('file-a'), await newCertificate('file-b')];
  await signInToCertificates(page, 'issuer@contoso.example');
  await page.getByRole('link', { name: 'Upload certificate' }).click();
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Read from files' }).click();
  await (await chooser).setFiles([
    { name: 'a.pem', mimeType: 'application/x-pem-file', buffer: Buffer.from(one.pem) },
    { name: 'b.crt', mimeType: 'application/x-x509-ca-cert', buffer: Buffer.from(two.pem) },
  ]);
  const text = page.getByLabel('Certificate', { exact: true });
  await expect(text).toHaveValue(`${one.pem.trimEnd()}\n${two.pem.trimEnd()}`);
  await expect(page.getByRole('button', { name: 'Upload 2 certificates' })).toBeVisible();

  // Back to one: the single upload as before, straight to the list.
  await text.fill(one.pem);
  await page.getByRole('button', { name: 'Upload certificate', exact: true }).click();
  await expect(toast(page, `Certificate ${one.dn} uploaded.`)).toBeVisible();
  await expect(page).toHaveURL(/\/organizations\/[^/]+\/certificates$/);
});
