/**
 * The browser sign-in through a second, standalone OpenID Connect provider (issue 14 item 1):
 * its own portal (demo data, OIDC_ISSUER set) beside the shared one, and oidc-provider shaped as
 * test/support/second-provider.ts makes it: access tokens for the API that name nobody, the person
 * in the ID token, userinfo refusing the API's token. The web app's ID token names the person.
 */
import { freePort } from '../scripts/free-port.mjs';
import { startSecondProvider, type SecondProvider } from '../test/support/second-provider';
import { startPortal, type Portal } from './portals';
import { SIGN_IN_TIMEOUT, expect, expectAccessible, test } from './support';

let idp: SecondProvider;
let portal: Portal;

test.beforeAll(async () => {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  idp = await startSecondProvider({
    userinfo: 'own',
    redirectUris: [`${url}/auth/callback`, `${url}/auth/silent`],
    postLogoutRedirectUris: [`${url}/login`],
    claims: {
      idToken: (a) => (a.name === 'Nobody Known' ? { name: a.name } : { email: a.email, email_verified: a.email_verified, name: a.name }),
      userinfo: (a) => ({ email: a.email, email_verified: a.email_verified }),
    },
  });
  idp.addAccount('isla', { email: 'issuer@contoso.example', email_verified: true, name: 'Isla Contoso' });
  idp.addAccount('nobody', { email: 'member@contoso.example', email_verified: true, name: 'Nobody Known' });
  portal = await startPortal(port, {
    PUBLIC_URL: url, SEED_DEMO: 'true', DATABASE_URL: '',
    OIDC_ISSUER: idp.issuer, OIDC_CLIENT_ID: idp.clientId, OIDC_AUDIENCE: idp.audience,
  });
});

test.afterAll(async () => {
  await portal?.stop();
  await idp?.close();
});

async function signInThere(page: import('@playwright/test').Page, account: string) {
  await page.goto(`${portal.url}/login`);
  await page.getByLabel('Account').fill(account);
  await page.getByRole('button', { name: 'Continue' }).click();
}

test('a person the access token does not name signs in through the second provider, named by the ID token', async ({ page }) => {
  await signInThere(page, 'isla');
  await expect(page).toHaveURL(/\/organizations\/[^/]+\/certificates$/, { timeout: SIGN_IN_TIMEOUT });
  await expect(page.getByRole('heading', { level: 1, name: 'Certificates' })).toBeVisible({ timeout: SIGN_IN_TIMEOUT });
  await expect(page.getByRole('combobox', { name: 'Organization' })).toHaveValue('Contoso');
});

test('a person no token names is told why on the access-error screen, and the log names the setting', async ({ page, browserProblems }) => {
  browserProblems.expectRefusal(403, /^\/api\/auth\/callback$/);
  await signInThere(page, 'nobody');
  await expect(page).toHaveURL(/\/access-error$/, { timeout: SIGN_IN_TIMEOUT });
  await expect(page.getByText(/did not tell the portal your email address/).first()).toBeVisible();
  await expectAccessible(page);
  expect(portal.lines.filter((l) => l.level === 40).map((l) => l.msg)).toContainEqual(expect.stringMatching(/^sign-in refused, the person is unknown: .*OIDC_EMAIL_CLAIM/));
});
