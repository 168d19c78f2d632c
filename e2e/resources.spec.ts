/**
 * Resources and the download gateway, end to end: devops makes an API token and the gateway's
 * routes file is fetched with it outside the browser; a supervisor adds a RESTRICTED resource and
 * grants it to Contoso; Contoso's member sees a granted resource and the routes file lists Contoso
 * for it; a supervisor deletes one. Each test makes the resources and tokens it needs.
 *
 * SHOTS_DIR=<folder> also saves screenshots of every page at laptop and phone width.
 */
import { request as playwrightRequest, type Page } from '@playwright/test';
import type { Resource } from '../common/schemas/resource';
import { apiAs, expect, expectAccessible, organizationIdOf, shoot, signInToCertificates, test, toast, type Api } from './support';


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

/** Names and paths of this test's own resource. */
function newResourceNames() {
  const stamp = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  return { stamp, resourceName: `E2E beta ${stamp}`, pathPattern: `/e2e/${stamp}/**` };
}

/** A RESTRICTED resource made through the API, as the supervisor's screen would. */
async function createResource(supervisor: Api, { stamp, resourceName, pathPattern }: ReturnType<typeof newResourceNames>): Promise<Resource> {
  return supervisor.call<Resource>('POST', '/api/resources', {
    data: {
      resource_name: resourceName, resource_type: 'STATIC_CONTENT', resource_access: 'RESTRICTED',
      path_pattern: pathPattern, location: `/srv/e2e/${stamp}`, description: 'Made by the end-to-end test.',
    },
  });
}

const heading = (page: Page, name: string) => page.getByRole('heading', { level: 1, name, exact: true });

test.describe('resources and the download gateway', () => {
  test('devops creates a token and the gateway reads routes.hcl with it', async ({ page, context, baseURL }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await signInToCertificates(page, 'devops@operator.example');

    // The master secret is there (e2e/master-secret.setup.ts): the token screen does not warn.
    await page.getByRole('link', { name: 'Admin', exact: true }).click();
    await page.getByRole('navigation', { name: 'Admin sidebar' }).getByRole('link', { name: 'New Token' }).click();
    await expect(page).toHaveURL(/\/admin\/token$/);
    await expect(heading(page, 'New Token')).toBeVisible();
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
    // Name and upn are both required.
    await expect(page.getByText('is required')).toHaveCount(2);
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill(`E2E gateway ${Date.now().toString(36)}`);
    await page.getByLabel('User principal name (upn)').fill('piston@gateway.example');
    await page.getByRole('button', { name: 'Create token' }).click();
    const tokenBox = page.getByRole('textbox', { name: 'Token', exact: true });
    await expect(tokenBox).toBeVisible();
    await expect(toast(page, 'Token for piston@gateway.example created.')).toBeVisible();
    const apiToken = await tokenBox.inputValue();
    expect(apiToken.split('.')).toHaveLength(3);
    await expect(page.getByText('Shown only once')).toBeVisible();
    await page.getByRole('button', { name: 'Copy' }).click();
    await expect(page.getByRole('button', { name: 'copied!' })).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(apiToken);
    // The button says so for a moment, then offers to copy again.
    await expect(page.getByRole('button', { name: 'Copy' })).toBeVisible();
    await expectAccessible(page);
    await shoot(page, 'token');

    const routes = await fetchRoutes(baseURL!, apiToken);
    expect(routes.body).toContain('name          = "Linux packages (beta)"');
    expect(routes.body).toContain('path_pattern  = "/packages/beta/**"');
    expect(routes.body).toContain('path_pattern  = "/docs/**"');

    await page.getByRole('navigation', { name: 'Admin sidebar' }).getByRole('link', { name: 'Piston Resources' }).click();
    await expect(heading(page, 'Piston Resources')).toBeVisible();
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
    const { stamp, resourceName, pathPattern } = newResourceNames();
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
    await page.getByLabel('Location').fill('../x');
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    // Each message under its field (the input's description), the first of them focused; nothing sent.
    const pattern = page.getByLabel('Path pattern');
    const location = page.getByLabel('Location');
    await expect(pattern).toHaveAttribute('aria-invalid', 'true');
    await expect(pattern).toHaveAccessibleDescription(/must be an absolute path pattern/i);
    await expect(location).toHaveAttribute('aria-invalid', 'true');
    await expect(location).toHaveAccessibleDescription(/must be an absolute server path/i);
    await expect(pattern).toBeFocused();
    await expect(page).toHaveURL(/\/admin\/resources\/new$/);
    await expectAccessible(page);
    await shoot(page, 'new-resource');
    // A change takes its field's message away.
    await location.fill(`/srv/e2e/${stamp}`);
    await expect(location).not.toHaveAttribute('aria-invalid', 'true');
    await expect(location).not.toHaveAccessibleDescription(/must be/i);
    await page.getByLabel('Path pattern').fill(pathPattern);
    await page.getByRole('combobox', { name: 'Type' }).click();
    await page.getByRole('option', { name: 'Static content' }).click();
    await page.getByRole('combobox', { name: 'Access' }).click();
    await page.getByRole('option', { name: 'Restricted' }).click();
    await page.getByLabel('Description').fill('Made by the end-to-end test.');
    await page.getByRole('button', { name: 'Create', exact: true }).click();

    await expect(page).toHaveURL(/\/admin\/resources\/[0-9a-f-]{36}$/);
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
    // The switch is the server's answer: click, then wait for it to show the grant.
    await contoso.click();
    await expect(contoso).toBeChecked();
    await expect(toast(page, `Granted ${resourceName} to Contoso.`)).toBeVisible();
    await expect(contoso).toBeEnabled();
    await expect(page.getByRole('tab', { name: 'Organizations (1)' })).toBeVisible();
    await expectAccessible(page);
    await shoot(page, 'resource-organizations');

    // A PUBLIC resource has no grants: its Organizations tab is disabled.
    await page.goto('/admin/resources');
    await page.getByRole('link', { name: 'Release notes', exact: true }).click();
    await expect(page.getByRole('tab', { name: 'Organizations' })).toBeDisabled();
  });

  test("Contoso's member sees a granted resource, and routes.hcl lists Contoso for it", async ({ page, newPage, baseURL }) => {
    const names = newResourceNames();
    const { resourceName, pathPattern } = names;
    await signInToCertificates(page, 'member@contoso.example');
    const contosoId = organizationIdOf(page);
    // Meanwhile the supervisor grants a new resource to Contoso, and devops makes the gateway a token.
    const supervisor = await apiAs(newPage, 'supervisor@operator.example');
    const { resource_id: resourceId } = await createResource(supervisor, names);
    await supervisor.call('POST', `/api/resources/${resourceId}/add`, { params: { organization: contosoId } });
    const devops = await apiAs(newPage, 'devops@operator.example');
    const apiToken = await devops.call<string>('POST', '/api/token', { data: { upn: 'piston@gateway.example', groups: ['piston_export'], expires_in: 1 } });

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

  test('a supervisor deletes a resource after confirming', async ({ page, newPage }) => {
    const names = newResourceNames();
    const { resourceName } = names;
    const { resource_id: resourceId } = await createResource(await apiAs(newPage, 'supervisor@operator.example'), names);
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

  test('an approver of the operator sees neither the location nor the grants of a resource', async ({ page }) => {
    await signInToCertificates(page, 'approver@operator.example');
    await page.goto('/admin/resources');
    await page.getByRole('link', { name: 'Linux packages (beta)' }).click();
    await expect(page.getByRole('textbox', { name: 'Name', exact: true })).toHaveAttribute('readonly', '');
    await expect(page.getByLabel('Location')).toHaveCount(0);
    await expect(page.getByRole('tab', { name: 'Organizations' })).toBeDisabled();
    await expectAccessible(page);
  });
});
