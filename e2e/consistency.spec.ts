/**
 * One pattern per situation (issue 12 item 8, docs/decisions.md "Consistent patterns"): what is not
 * found (or not the person's: the server answers 404 for both) shows one not-found state with a
 * way back, whatever was asked for; a screen the person's roles do not allow says which roles it
 * needs instead of showing a form; a refusal about one field, a 409 included, shows under it.
 */
import type { Page } from '@playwright/test';
import { makeCertificate } from '../scripts/make-certificate';
import { apiAs, apiOf, expect, expectAccessible, organizationIdOf, signInToCertificates, test, toast } from './support';

/** An id no record has (a well-formed UUID, so the server looks it up rather than refusing the form of it). */
const NO_SUCH_ID = '00000000-0000-4000-8000-000000000000';

async function expectNotFound(page: Page, title: string, back: string) {
  await expect(page.getByRole('heading', { level: 1, name: title, exact: true })).toBeVisible();
  await expect(page.getByRole('main')).toContainText('it does not exist (any more), or it is not yours');
  await expect(page.getByRole('link', { name: back })).toBeVisible();
}

test.describe('not found, or not yours', () => {
  test('an unknown certificate, license or member, and another organization, show the not-found state with a way back', async ({ page, newPage, browserProblems }) => {
    browserProblems.expectRefusal(404, /^\/api\//);
    const northwind = (await apiAs(newPage, 'issuer@northwind.example')).organizationId;
    await signInToCertificates(page, 'issuer@contoso.example');
    const contoso = organizationIdOf(page);

    await page.goto(`/organizations/${contoso}/certificates/${encodeURIComponent('CN=no-such.contoso.example,O=Contoso')}`);
    await expectNotFound(page, 'Certificate not found', 'Back to the certificates');
    await expectAccessible(page);
    await page.getByRole('link', { name: 'Back to the certificates' }).click();
    await expect(page).toHaveURL(`/organizations/${contoso}/certificates`);
    await expect(page.getByRole('heading', { level: 1, name: 'Certificates' })).toBeVisible();

    await page.goto(`/organizations/${contoso}/licenses/${NO_SUCH_ID}`);
    await expectNotFound(page, 'License not found', 'Back to the licenses');
    await page.getByRole('link', { name: 'Back to the licenses' }).click();
    await expect(page).toHaveURL(`/organizations/${contoso}/licenses`);
    await expect(page.getByRole('heading', { level: 1, name: 'Licenses' })).toBeVisible();

    await page.goto(`/organizations/${contoso}/members/${NO_SUCH_ID}`);
    await expectNotFound(page, 'Member not found', 'Back to the members');

    // Northwind is Contoso's parent: it exists, but Contoso's issuer may not read it. Its pages
    // look exactly like those of an organization that does not exist, not like a list with "…".
    for (const organization of [northwind, NO_SUCH_ID]) {
      await page.goto(`/organizations/${organization}/certificates`);
      await expectNotFound(page, 'Organization not found', 'Back to Self-Service');
      await expect(page.getByLabel('Filter by DN')).toHaveCount(0);
    }
    await expectAccessible(page);
    await page.getByRole('link', { name: 'Back to Self-Service' }).click();
    await expect(page).toHaveURL(/\/organizations$/);
  });

  test('an unknown organization or resource in the admin area shows the same state', async ({ page, browserProblems }) => {
    browserProblems.expectRefusal(404, /^\/api\//);
    await signInToCertificates(page, 'supervisor@operator.example');
    await page.goto(`/admin/organizations/${NO_SUCH_ID}`);
    await expectNotFound(page, 'Organization not found', 'Back to the organizations');
    await page.goto(`/admin/resources/${NO_SUCH_ID}`);
    await expectNotFound(page, 'Resource not found', 'Back to resources');
    await expectAccessible(page);
    await page.getByRole('link', { name: 'Back to resources' }).click();
    await expect(page).toHaveURL(/\/admin\/resources$/);
  });
});

test('without the role, upload and license request both say which roles they need, and show no form', async ({ page }) => {
  await signInToCertificates(page, 'member@contoso.example');
  const contoso = organizationIdOf(page);

  await page.goto(`/organizations/${contoso}/certificates/upload`);
  const upload = page.getByRole('alert').filter({ hasText: 'You may not upload certificates here' });
  await expect(upload).toContainText('Uploading a certificate needs the Supervisor, Issuer or Approver role in this organization.');
  await expect(page.getByLabel('Certificate', { exact: true })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Upload certificate' })).toHaveCount(0);
  await expectAccessible(page);

  await page.goto(`/organizations/${contoso}/licenses/new`);
  const request = page.getByRole('alert').filter({ hasText: 'You may not request licenses here' });
  await expect(request).toContainText('Requesting a license needs the Supervisor, Issuer or Approver role in this organization.');
  await expect(page.getByLabel('License name')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Request license' })).toHaveCount(0);
  await expectAccessible(page);
});

test('an upload of a certificate already in the portal says so under the field, not in a toast', async ({ page, browserProblems }) => {
  browserProblems.expectRefusal(409, /^\/api\/organizations\/[^/]+\/certificates$/);
  const cn = `e2e-twice-${Date.now()}-${Math.random().toString(36).slice(2, 7)}.contoso.example`;
  const { pem } = await makeCertificate({ subject: `C=DE, O=Contoso, CN=${cn}`, notBefore: new Date(Date.now() - 86_400_000), notAfter: new Date(Date.now() + 30 * 86_400_000) });
  await signInToCertificates(page, 'issuer@contoso.example');
  await (await apiOf(page)).call('POST', `/api/organizations/${organizationIdOf(page)}/certificates`, { data: { description: 'The first upload', certificate: pem } });

  await page.getByRole('link', { name: 'Upload certificate' }).click();
  await page.getByLabel('Certificate', { exact: true }).fill(pem);
  await page.getByRole('button', { name: 'Upload certificate' }).click();
  const certificate = page.getByLabel('Certificate', { exact: true });
  await expect(certificate).toHaveAttribute('aria-invalid', 'true');
  await expect(certificate).toHaveAccessibleDescription(new RegExp(`A certificate with the distinguished name CN=${cn},O=Contoso,C=DE is already in the portal\\.`));
  await expect(certificate).toBeFocused();
  await expect(toast(page, /already in the portal/)).toHaveCount(0);
  await expect(page).toHaveURL(/\/certificates\/upload$/);
  await expectAccessible(page);
});
