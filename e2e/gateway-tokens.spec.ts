/**
 * Gateway tokens listed and revoked (issue 34 item 3): devops makes a named token, finds it in the list,
 * revokes it after confirming, and the gateway is refused with it from then on (outside the browser).
 */
import { request as playwrightRequest, type Page } from '@playwright/test';
import { expect, expectAccessible, row, shoot, signInToCertificates, test, toast } from './support';

const heading = (page: Page, name: string) => page.getByRole('heading', { level: 1, name, exact: true });

/** The status of GET /api/piston/routes.hcl with an API token, as the gateway polls it. */
async function gatewayStatus(baseURL: string, apiToken: string): Promise<number> {
  const gateway = await playwrightRequest.newContext({ baseURL });
  try {
    return (await gateway.get('/api/piston/routes.hcl', { headers: { authorization: `Bearer ${apiToken}` } })).status();
  } finally {
    await gateway.dispose();
  }
}

test('devops names a token, sees it listed, and revokes it: the gateway is refused at its next poll', async ({ page, baseURL }) => {
  const name = `E2E revoked ${Date.now().toString(36)}`;
  await signInToCertificates(page, 'devops@operator.example');
  await page.goto('/admin/token');
  await expect(heading(page, 'New Token')).toBeVisible();
  await expect(page.getByRole('table', { name: 'Tokens made' }).or(page.getByText('No tokens made yet.'))).toBeVisible();

  await page.getByRole('textbox', { name: 'Name', exact: true }).fill(name);
  await page.getByLabel('User principal name (upn)').fill('revoked@gateway.example');
  const listed = page.waitForResponse((r) => r.url().endsWith('/api/tokens') && r.request().method() === 'GET');
  await page.getByRole('button', { name: 'Create token' }).click();
  await expect(toast(page, 'Token for revoked@gateway.example created.')).toBeVisible();
  const apiToken = await page.getByRole('textbox', { name: 'Token', exact: true }).inputValue();
  await listed;
  const tokenRow = row(page, name);
  await expect(tokenRow).toContainText('Active');
  await expect(tokenRow).toContainText('devops@operator.example');
  expect(await gatewayStatus(baseURL!, apiToken)).toBe(200);
  await expectAccessible(page);
  await shoot(page, 'gateway-tokens');

  await tokenRow.getByRole('button', { name: `Revoke ${name}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Revoke token?' });
  await expect(dialog).toContainText(name);
  await expectAccessible(page);
  await shoot(page, 'gateway-tokens-revoke');
  const revoked = page.waitForResponse((r) => r.url().includes('/api/tokens/') && r.request().method() === 'DELETE');
  await dialog.getByRole('button', { name: 'Revoke token' }).click();
  expect((await revoked).status()).toBe(200);
  await expect(toast(page, `Token ${name} revoked.`)).toBeVisible();
  await expect(tokenRow).toContainText('Revoked');
  await expect(tokenRow.getByRole('button', { name: `Revoke ${name}` })).toHaveCount(0);
  expect(await gatewayStatus(baseURL!, apiToken)).toBe(401);
  await expectAccessible(page);
});
