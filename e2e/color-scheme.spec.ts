/**
 * Dark mode (issue 12 item 7, docs/decisions.md "Dark mode"): the screens follow the system's
 * scheme until the person picks one with the header's switch, which is remembered; the first paint
 * already has the scheme, before any script of the app has run. (Every axe check of the specs runs
 * in both schemes: e2e/support.ts expectAccessible.)
 */
import { expect, signInToCertificates, test } from './support';

/** Mantine's body colours: white, and dark.7. */
const LIGHT_BODY = 'rgb(255, 255, 255)';
const DARK_BODY = 'rgb(36, 36, 36)';

test('the header switches between light and dark, and the pick outlasts a reload and the system', async ({ page }) => {
  await signInToCertificates(page, 'member@contoso.example');
  const html = page.locator('html');
  const body = page.locator('body');
  // Nothing picked yet: the system's scheme (Playwright's light).
  await expect(html).toHaveAttribute('data-mantine-color-scheme', 'light');
  await expect(body).toHaveCSS('background-color', LIGHT_BODY);

  await page.getByRole('button', { name: 'Switch to dark mode' }).click();
  await expect(html).toHaveAttribute('data-mantine-color-scheme', 'dark');
  await expect(body).toHaveCSS('background-color', DARK_BODY);
  await expect(page.getByRole('button', { name: 'Switch to light mode' })).toBeVisible();

  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Certificates' })).toBeVisible();
  await expect(html).toHaveAttribute('data-mantine-color-scheme', 'dark');
  await expect(page.getByRole('button', { name: 'Switch to light mode' })).toBeVisible();

  // Picked light on a dark system: light it stays, after a reload too.
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.getByRole('button', { name: 'Switch to light mode' }).click();
  await expect(html).toHaveAttribute('data-mantine-color-scheme', 'light');
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Certificates' })).toBeVisible();
  await expect(html).toHaveAttribute('data-mantine-color-scheme', 'light');
  await expect(body).toHaveCSS('background-color', LIGHT_BODY);
});

test('a dark system gets a dark first paint: the loading screen is dark before the scripts run', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'dark' });
  // On the first load the app's scripts come empty, so the loading screen stays as the first paint
  // drew it. (Answered at once, not held: a request held until the end of the test kept the
  // browser context from closing on a loaded CI machine.)
  const appScripts = /\/assets\/.*\.js$/;
  await page.route(appScripts, (route) => route.fulfill({ contentType: 'text/javascript', body: '' }));
  await page.goto('/organizations');
  await expect(page.locator('.boot')).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
  await expect(page.locator('body')).toHaveCSS('background-color', DARK_BODY);
  // With its scripts the app takes over (nobody is signed in: the sign-in).
  await page.unroute(appScripts);
  await page.reload();
  await expect(page).toHaveURL(/\/(login|oidc\/)/);
});
