/**
 * Resources and the download gateway, end to end: devops provides the master secret and makes an
 * API token, the gateway's routes file is fetched with it outside the browser; a supervisor adds
 * a RESTRICTED resource and grants it to Contoso, whose member then sees it, and the routes file
 * lists Contoso for it.
 *
 * SHOTS_DIR=<folder> also saves screenshots of every page at laptop and phone width.
 */
import { expect, request as playwrightRequest, test, type Page } from '@playwright/test';
import { MASTER_SECRET, expectAccessible, organizationIdOf, shoot, signInToCertificates } from './support';


/** The access token oidc-client-ts keeps in localStorage under oidc.user:<authority>:<client_id>. */
async function accessTokenOf(page: Page): Promise<string> {
  const token = await page.evaluate(() => {
    const key = Object.keys(window.localStorage).find((k) => k.startsWith('oidc.user:'));
    const user = key ? (JSON.parse(window.localStorage.getItem(key) ?? 'null') as { access_token?: string } | null) : null;
    return user?.access_token ?? '';
  });
  expect(token).not.toBe('');
  return token;
}

/** GET /api/piston/routes.hcl with an API token, from outside the browser (as the gateway does). */
async function fetchRoutes(baseURL: string, apiToken: string) {
  const gateway = await playwrightRequest.newContext({ baseURL });
  try {
    const response = await gateway.get('/api/piston/routes.hcl', { headers: { authorization: `Bearer ${apiToken}` } });
    expect(response.status()).toBe(200);
    return { body: await response.text(), etag: response.headers()['etag'] ?? '' };
  } finally {
    await gateway.dispose();
  }
}

/** The block of one resource in routes.hcl. */
function blockOf(routes: string, resourceId: string): string {
  const start = routes.indexOf(`resource "${resourceId}" {`);
  expect(start, `routes.hcl has a block for ${resourceId}`).toBeGreaterThanOrEqual(0);
  return routes.slice(start, routes.indexOf('\n}', start) + 2);
}

test.describe.configure({ mode: 'serial' });

test.describe('resources and the download gateway', () => {
  const stamp = Date.now().toString(36);
  const resourceName = `E2E beta ${stamp}`;
  const pathPattern = `/e2e/${stamp}/**`;
  let apiToken = '';
  let resourceId = '';

  test('devops provides the secret, creates a token and the gateway reads routes.hcl with it', async ({ page, context, baseURL }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await signInToCertificates(page, 'devops@operator.example');

    // Before the secret: the token screen says so (unless another spec provided it already).
    const state = await page.request.get('/api/admin/state', { headers: { authorization: `Bearer ${await accessTokenOf(page)}` } });
    if (!((await state.json()) as { secret_provided: boolean }).secret_provided) {
      await page.goto('/admin/token');
      await expect(page.getByText('Secret not yet provided!')).toBeVisible();
      await expect(page.getByRole('link', { name: 'Provide Secret' }).last()).toHaveAttribute('href', '/admin/secret');
      await expectAccessible(page);
      await shoot(page, 'token-no-secret');
    }

    // The Provide Secret screen is someone else's work: the API directly, as that screen would.
    const provided = await page.request.post('/api/admin/mastersecret', {
      data: MASTER_SECRET,
      headers: { authorization: `Bearer ${await accessTokenOf(page)}`, 'content-type': 'text/plain' },
    });
    expect([200, 409]).toContain(provided.status());
    if (provided.status() === 409) expect((await provided.json()) as { message: string }).toMatchObject({ message: 'Secret already provided!' });

    // The secret came in past the app: a reload asks for the state again.
    await page.goto('/admin');
    await page.getByRole('navigation', { name: 'Admin sidebar' }).getByRole('link', { name: 'New Token' }).click();
    await expect(page).toHaveURL(/\/admin\/token$/);
    await expect(page.getByRole('heading', { level: 1, name: 'New Token' })).toBeVisible();
    await expect(page.getByText('Secret not yet provided!')).toHaveCount(0);
    const slider = page.getByRole('slider', { name: 'Expires in (days)' });
    await expect(slider).toHaveAttribute('aria-valuenow', '365');
    await slider.focus();
    await page.keyboard.press('ArrowLeft');
    await expect(slider).toHaveAttribute('aria-valuenow', '364');
    await page.keyboard.press('ArrowRight');
    await expect(page.getByRole('combobox', { name: 'Group' })).toHaveValue('piston_export');
    await expectAccessible(page);

    await page.getByRole('button', { name: 'Create token' }).click();
    await expect(page.getByText('is required')).toBeVisible();
    await page.getByLabel('User principal name (upn)').fill('piston@gateway.example');
    await page.getByRole('button', { name: 'Create token' }).click();
    const tokenBox = page.getByRole('textbox', { name: 'Token', exact: true });
    await expect(tokenBox).toBeVisible();
    apiToken = await tokenBox.inputValue();
    expect(apiToken.split('.')).toHaveLength(3);
    await expect(page.getByText('Shown only once')).toBeVisible();
    await page.getByRole('button', { name: 'Copy' }).click();
    await expect(page.getByRole('button', { name: 'copied!' })).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(apiToken);
    await expect(page.getByRole('button', { name: 'Copy' })).toBeVisible({ timeout: 3000 });
    await expectAccessible(page);
    await shoot(page, 'token');

    const routes = await fetchRoutes(baseURL!, apiToken);
    expect(routes.body).toContain('name          = "Linux packages (beta)"');
    expect(routes.body).toContain('path_pattern  = "/packages/beta/**"');
    expect(routes.body).toContain('path_pattern  = "/docs/**"');

    await page.getByRole('navigation', { name: 'Admin sidebar' }).getByRole('link', { name: 'Piston Resources' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Piston Resources' })).toBeVisible();
    await expect(page.getByTestId('routes.hcl-etag')).toHaveText(routes.etag);
    await expect(page.getByTestId('certs.tar.gz-etag')).toHaveText(/^".+"$/);
    await expect(page.getByText(/^Latest change:/)).toBeVisible();
    await expect(page.getByRole('table', { name: 'Recent certificate changes per organization' })).toContainText('Contoso');
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download routes.hcl' }).click();
    expect((await download).suggestedFilename()).toBe('routes.hcl');
    await expectAccessible(page);
    await shoot(page, 'piston');
  });

  test('a supervisor adds a RESTRICTED resource and grants it to Contoso', async ({ page }) => {
    await signInToCertificates(page, 'supervisor@operator.example');
    await page.goto('/admin/resources');
    await expect(page.getByRole('heading', { level: 1, name: 'Resources' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Linux packages (beta)' })).toBeVisible();
    await expectAccessible(page);
    await shoot(page, 'admin-resources');

    await page.getByLabel('Filter').fill('images');
    await expect(page.getByRole('link', { name: 'Container images' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Release notes', exact: true })).toHaveCount(0);
    await page.getByLabel('Filter').fill('no such resource');
    await expect(page.getByText('No resources found.')).toBeVisible();

    await page.getByRole('link', { name: 'New resource' }).click();
    await expect(page).toHaveURL(/\/admin\/resources\/new$/);
    await expect(page.getByRole('heading', { level: 1, name: 'New resource' })).toBeVisible();
    await expectAccessible(page);
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill(resourceName);
    await page.getByLabel('Path pattern').fill('packages/no-slash');
    await page.getByLabel('Location').fill(`/srv/e2e/${stamp}`);
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await expect(page.getByText(/must be an absolute path pattern/)).toBeVisible();
    await shoot(page, 'new-resource');
    await page.getByLabel('Path pattern').fill(pathPattern);
    await page.getByRole('combobox', { name: 'Type' }).click();
    await page.getByRole('option', { name: 'Static content' }).click();
    await page.getByRole('combobox', { name: 'Access' }).click();
    await page.getByRole('option', { name: 'Restricted' }).click();
    await page.getByLabel('Description').fill('Made by the end-to-end test.');
    await page.getByRole('button', { name: 'Create', exact: true }).click();

    await expect(page).toHaveURL(/\/admin\/resources\/[0-9a-f-]{36}$/);
    resourceId = new URL(page.url()).pathname.split('/').pop()!;
    await expect(page.getByRole('heading', { level: 1, name: resourceName })).toBeVisible();
    await expect(page.getByLabel('Ordinal')).not.toHaveValue('');
    await expect(page.getByRole('button', { name: 'Save' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Delete', exact: true })).toBeVisible();
    await expectAccessible(page);
    await shoot(page, 'resource-details');
    await page.getByLabel('Description').fill('Early builds, made by the end-to-end test.');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(page.getByText(`Saved resource ${resourceName}.`)).toBeVisible();
    await expect(page.getByLabel('Description')).toHaveValue('Early builds, made by the end-to-end test.');

    await page.getByRole('tab', { name: /Organizations/ }).click();
    await expect(page).toHaveURL(/#organizations$/);
    const contoso = page.getByRole('switch', { name: 'Granted to Contoso' });
    await expect(contoso).not.toBeChecked();
    await contoso.check();
    await expect(contoso).toBeChecked();
    await expect(page.getByRole('tab', { name: 'Organizations (1)' })).toBeVisible();
    await expectAccessible(page);
    await shoot(page, 'resource-organizations');

    // A PUBLIC resource has no grants: its Organizations tab is disabled.
    await page.goto('/admin/resources');
    await page.getByRole('link', { name: 'Release notes', exact: true }).click();
    await expect(page.getByRole('tab', { name: 'Organizations' })).toBeDisabled();
  });

  test("Contoso's member sees the granted resource, and routes.hcl lists Contoso for it", async ({ page, baseURL }) => {
    expect(resourceId).not.toBe('');
    await signInToCertificates(page, 'member@contoso.example');
    const contosoId = organizationIdOf(page);
    await page.getByRole('link', { name: 'Resources', exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/organizations/${contosoId}/resources$`));
    await expect(page.getByRole('heading', { level: 1, name: 'Resources' })).toBeVisible();
    const table = page.getByRole('table');
    await expect(table).toContainText(resourceName);
    await expect(table).toContainText(pathPattern);
    await expect(table).toContainText('Linux packages (beta)'); // granted in the demo data
    await expect(table).not.toContainText('Lab images'); // granted to Northwind only
    await expectAccessible(page);
    await shoot(page, 'organization-resources');

    const routes = await fetchRoutes(baseURL!, apiToken);
    const block = blockOf(routes.body, resourceId);
    expect(block).toContain(`name          = "${resourceName}"`);
    expect(block).toContain('access        = "RESTRICTED"');
    expect(block).toContain(`organizations = ["${contosoId}"]`);
  });

  test('a supervisor deletes the resource after confirming', async ({ page }) => {
    expect(resourceId).not.toBe('');
    await signInToCertificates(page, 'supervisor@operator.example');
    await page.goto(`/admin/resources/${resourceId}`);
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete resource?' });
    await expect(dialog).toBeVisible();
    await expectAccessible(page);
    await shoot(page, 'delete-resource');
    await dialog.getByRole('button', { name: 'Delete resource' }).click();
    await expect(page).toHaveURL(/\/admin\/resources$/);
    await expect(page.getByText(`Deleted resource ${resourceName}.`)).toBeVisible();
    await expect(page.getByRole('link', { name: resourceName })).toHaveCount(0);
    await expect(page.getByText('Resource not found.')).toHaveCount(0);
  });

  test('an administrator of the operator sees resources read-only but may grant', async ({ page }) => {
    await signInToCertificates(page, 'admin@operator.example');
    await page.goto('/admin/resources');
    await expect(page.getByRole('link', { name: 'New resource' })).toHaveCount(0);
    await page.getByRole('link', { name: 'Linux packages (beta)' }).click();
    await expect(page.getByRole('button', { name: 'Save' })).toHaveCount(0);
    await expect(page.getByRole('textbox', { name: 'Name', exact: true })).toHaveAttribute('readonly', '');
    await page.getByRole('tab', { name: /Organizations/ }).click();
    await expect(page.getByRole('switch', { name: 'Granted to Contoso' })).toBeEnabled();
    await expect(page.getByRole('switch', { name: 'Granted to Contoso' })).toBeChecked();
    await expectAccessible(page);
  });
});
