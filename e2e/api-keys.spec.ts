/**
 * API keys end to end (issue 32): Northwind's administrator creates a key on the API keys page, copies its secret
 * (shown once, with a curl example); a script uploads a certificate with it; the operator's approver approves it;
 * the administrator revokes the key after a confirmation and the script's next call is refused.
 * A key may hold several roles, each with its scope, chosen in the dialog the Roles tab's way. SHOTS_DIR saves the
 * screens at laptop and phone width.
 */
import { makeCertificate } from '../scripts/make-certificate';
import { answerTo, apiAs, expect, expectAccessible, organizationIdOf, row, shoot, signInToCertificates, test, toast } from './support';

const DAY = 86_400_000;

test('create a key in the browser, use it from a script, revoke it', async ({ page, newPage }) => {
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await signInToCertificates(page, 'admin@northwind.example');
  const organizationId = /\/organizations\/([^/]+)/.exec(page.url())![1];
  await page.getByRole('link', { name: 'API keys' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'API keys' })).toBeVisible();
  await expectAccessible(page);

  const name = `ci-gateway-${Date.now()}`;
  await page.getByRole('button', { name: 'Create API key' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create API key' });
  await dialog.getByLabel('Name').fill(name);
  await dialog.getByRole('combobox', { name: 'Role', exact: true }).click();
  await page.getByRole('option', { name: 'Issuer' }).click();
  await dialog.getByText('30 days').click();
  await expectAccessible(page);
  await shoot(page, 'api-keys-create');
  const created = page.waitForResponse((r) => r.url().endsWith(`/api/organizations/${organizationId}/api-keys`) && r.request().method() === 'POST');
  await dialog.getByRole('button', { name: 'Create API key' }).click();
  expect((await created).status()).toBe(201);

  const shown = page.getByRole('dialog', { name: 'API key created' });
  await expect(shown.getByText('Shown only once')).toBeVisible();
  await expect(shown.getByLabel('curl example')).toContainText('Authorization: Bearer cpk_');
  await shown.getByRole('button', { name: 'Copy' }).click();
  await expect(shown.getByRole('button', { name: 'copied!' })).toBeVisible();
  const secret = await page.evaluate(() => navigator.clipboard.readText());
  expect(secret).toMatch(/^cpk_[0-9A-Za-z]{49}$/);
  await expectAccessible(page);
  await shoot(page, 'api-keys-secret');
  await shown.getByRole('button', { name: 'Done' }).click();
  await expect(row(page, name)).toContainText('Active');

  // The script: the key as a bearer token, no browser session.
  const headers = { authorization: `Bearer ${secret}` };
  const { pem } = await makeCertificate({ subject: `O=Northwind Networks, CN=${name}.northwind.example`, notBefore: new Date(Date.now() - DAY), notAfter: new Date(Date.now() + 90 * DAY) });
  const uploaded = await page.request.post(`/api/organizations/${organizationId}/certificates`, { headers, data: { description: 'built by CI', certificate: pem } });
  expect(uploaded.status()).toBe(201);
  const dn = ((await uploaded.json()) as { distinguished_name: string }).distinguished_name;
  const approver = await apiAs(newPage, 'approver@operator.example');
  await approver.call('POST', `/api/approve/${encodeURIComponent(dn)}`);
  const approved = await page.request.get(`/api/organizations/${organizationId}/certificates/${encodeURIComponent(dn)}`, { headers });
  expect(((await approved.json()) as { date_approved: string | null }).date_approved).not.toBeNull();

  await page.reload();
  await expect(row(page, name)).toContainText(/from/);
  await shoot(page, 'api-keys-list');
  await row(page, name).getByRole('button', { name: `Revoke ${name}` }).click();
  const revoked = page.waitForResponse((r) => r.request().method() === 'DELETE' && r.url().includes('/api-keys/'));
  await page.getByRole('dialog', { name: `Revoke ${name}?` }).getByRole('button', { name: 'Revoke' }).click();
  expect((await revoked).status()).toBe(204);
  await expect(toast(page, `Revoked the API key ${name}.`)).toBeVisible();
  await expect(row(page, name)).toContainText('Revoked');
  expect((await page.request.get(`/api/organizations/${organizationId}/certificates`, { headers })).status()).toBe(401);
});

test('a key made with two roles, each with its own scope, lists both', async ({ page }) => {
  await signInToCertificates(page, 'admin@northwind.example');
  const organizationId = organizationIdOf(page);
  await page.getByRole('link', { name: 'API keys' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'API keys' })).toBeVisible();

  const name = `two-roles-${Date.now()}`;
  await page.getByRole('button', { name: 'Create API key' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create API key' });
  await dialog.getByLabel('Name').fill(name);
  const first = dialog.getByRole('group', { name: 'Role 1' });
  await first.getByRole('combobox', { name: 'Role', exact: true }).click();
  await page.getByRole('option', { name: /^Issuer/ }).click();
  await first.getByRole('combobox', { name: 'Scope', exact: true }).click();
  await page.getByRole('option', { name: /^Managed/ }).click();
  await dialog.getByRole('button', { name: 'Add a role' }).click();
  const second = dialog.getByRole('group', { name: 'Role 2' });
  await second.getByRole('combobox', { name: 'Role', exact: true }).click();
  // A role the first row holds is not offered twice (the API refuses a repeated role).
  await expect(page.getByRole('option', { name: /^Issuer/ })).toBeDisabled();
  await page.getByRole('option', { name: /^Member/ }).click();

  // The dialog with two rows: axe in both schemes at laptop and at phone width.
  for (const size of [{ width: 1366, height: 768 }, { width: 390, height: 844 }]) {
    await page.setViewportSize(size);
    await expect(second.getByRole('button', { name: 'Remove role 2' })).toBeVisible();
    await expectAccessible(page);
  }
  await shoot(page, 'api-keys-two-roles');

  const created = page.waitForResponse((r) => r.url().endsWith(`/api/organizations/${organizationId}/api-keys`) && r.request().method() === 'POST');
  // The list is asked for again as soon as the key is made, behind the secret's dialog.
  const listed = answerTo(page, `/api/organizations/${organizationId}/api-keys`);
  await dialog.getByRole('button', { name: 'Create API key' }).click();
  const answer = await created;
  expect(answer.status()).toBe(201);
  expect(((await answer.json()) as { roles: unknown[] }).roles).toEqual([{ role: 'ISSUER', scope: 'MANAGED' }, { role: 'MEMBER', scope: 'ORGANIZATION' }]);
  await listed;
  await page.getByRole('dialog', { name: 'API key created' }).getByRole('button', { name: 'Done' }).click();
  await expect(row(page, name)).toContainText('Issuer (Managed), Member (Organization)');
});
