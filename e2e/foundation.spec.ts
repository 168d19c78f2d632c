import { PENDING_TASKS_URL, SIGN_IN_TIMEOUT, expect, expectAccessible, organizationIdOf, signIn, signInToCertificates, test } from './support';

test.describe('sign-in lands where SPEC.md says', () => {
  // Those who settle approvals land on Pending Tasks while some wait (issue 34; the demo has some): e2e/approvers.spec.ts.
  for (const email of ['supervisor@operator.example', 'approver@operator.example']) {
    test(`${email} lands on Pending Tasks while approvals wait`, async ({ page }) => {
      await signIn(page, email);
      await expect(page).toHaveURL(PENDING_TASKS_URL, { timeout: SIGN_IN_TIMEOUT });
      await expect(page.getByRole('heading', { level: 1, name: 'Pending Tasks' })).toBeVisible({ timeout: SIGN_IN_TIMEOUT });
    });
  }

  for (const [email, organization] of [
    ['admin@operator.example', 'Operator'],
    ['devops@operator.example', 'Operator'],
    ['admin@northwind.example', 'Northwind Networks'],
    ['issuer@northwind.example', 'Northwind Networks'],
    ['issuer@contoso.example', 'Contoso'],
    ['member@contoso.example', 'Contoso'],
  ] as const) {
    test(`${email} lands on the Certificates of ${organization}`, async ({ page }) => {
      await signInToCertificates(page, email, { fresh: true });
      await expect(page.getByRole('combobox', { name: 'Organization' })).toHaveValue(organization);
    });
  }

  test('a newcomer of a trusted domain joins Contoso', async ({ page }) => {
    await signInToCertificates(page, 'newcomer@contoso.example', { fresh: true });
    await expect(page.getByRole('combobox', { name: 'Organization' })).toHaveValue('Contoso');
  });

  test('a stranger lands on the unknown-organization screen', async ({ page, browserProblems }) => {
    // The portal answers the sign-in of someone it does not know with 403 and where to go.
    browserProblems.expectRefusal(403, /^\/api\/auth\/callback$/);
    await signIn(page, 'stranger@unknown.example');
    await expect(page).toHaveURL(/\/auth\/welcome$/, { timeout: SIGN_IN_TIMEOUT });
    await expect(page.getByText(/not allowed to sign up/i)).toBeVisible();
    await expectAccessible(page);
  });

  test('a member of a banned organization lands on the access error', async ({ page, browserProblems }) => {
    browserProblems.expectRefusal(403, /^\/api\/auth\/callback$/);
    await signIn(page, 'member@fabrikam.example');
    await expect(page).toHaveURL(/\/access-error$/, { timeout: SIGN_IN_TIMEOUT });
    await expect(page.getByText('Our apologies! You have no access to the portal services')).toBeVisible();
    await expectAccessible(page);
  });

  test('a wrong password is refused on the login page', async ({ page, browserProblems }) => {
    // The provider answers the form with 401 and the page again, with the message.
    browserProblems.expectRefusal(401, /^\/oidc\/interaction\/[^/]+\/login$/);
    await page.goto('/login');
    await page.getByLabel('Email').fill('issuer@contoso.example');
    await page.getByLabel('Password').fill('wrong');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('alert')).toHaveText('Email or password is wrong.');
    await expectAccessible(page);
  });
});

test.describe('the shell', () => {
  test('shows Admin only to SUPERVISOR, ADMINISTRATOR and DEVOPS', async ({ page }) => {
    await signInToCertificates(page, 'issuer@contoso.example');
    await expect(page.getByRole('link', { name: 'Admin' })).toHaveCount(0);
    await expect(page.getByRole('banner')).toContainText('[Isla Contoso]');
    await expectAccessible(page);
  });

  test('switching organization rewrites the URL and keeps the screen', async ({ page }) => {
    await signInToCertificates(page, 'supervisor@operator.example');
    await expect(page.getByRole('link', { name: 'Admin' })).toBeVisible();
    const before = organizationIdOf(page);
    await page.getByRole('combobox', { name: 'Organization' }).click();
    await page.getByRole('option', { name: 'Contoso' }).click();
    await expect(page).toHaveURL(/\/organizations\/[^/]+\/certificates$/);
    expect(organizationIdOf(page)).not.toBe(before);
    await page.getByRole('link', { name: 'Members' }).click();
    await expect(page).toHaveURL(new RegExp(`/organizations/${organizationIdOf(page)}/members$`));
    // The choice survives a reload (kept in browser storage).
    await page.reload();
    await expect(page.getByRole('combobox', { name: 'Organization' })).toHaveValue('Contoso');
  });

  test('the admin area opens on pending tasks for a supervisor', async ({ page }) => {
    await signInToCertificates(page, 'supervisor@operator.example');
    await page.getByRole('link', { name: 'Admin' }).click();
    await expect(page).toHaveURL(/\/admin\/pending-tasks$/);
    await expectAccessible(page);
  });

  test('Self-Service and Release Notes are reachable from the header', async ({ page }) => {
    await signInToCertificates(page, 'admin@northwind.example');
    await page.getByRole('link', { name: 'Release Notes' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Release Notes' })).toBeVisible();
    await expectAccessible(page);
    await page.getByRole('link', { name: 'Self-Service', exact: true }).click();
    await expect(page).toHaveURL(/\/organizations$/);
    await expect(page.getByRole('main')).toContainText('Contoso');
    await expectAccessible(page);
  });

  test('logout returns to the Welcome screen and ends the refresh token', async ({ page }) => {
    await signInToCertificates(page, 'member@contoso.example', { fresh: true });
    const user = await page.evaluate(() => {
      const key = Object.keys(window.localStorage).find((k) => k.startsWith('oidc.user:'))!;
      return JSON.parse(window.localStorage.getItem(key)!) as { refresh_token: string; profile: { aud: string } };
    });
    expect(user.refresh_token).toBeTruthy();
    const revoked = page.waitForResponse((response) => new URL(response.url()).pathname === '/oidc/token/revocation');
    await page.getByRole('link', { name: 'Logout' }).or(page.getByRole('button', { name: 'Logout' })).click();
    expect((await revoked).status()).toBe(200);
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
    await expectAccessible(page);
    // What someone who copied the stored tokens before the sign-out would try (issue 30).
    const refresh = await page.request.post('/oidc/token', {
      form: { grant_type: 'refresh_token', refresh_token: user.refresh_token, client_id: user.profile.aud },
      failOnStatusCode: false,
    });
    expect(refresh.status()).toBe(400);
    expect((await refresh.json()).error).toBe('invalid_grant');
  });

  test('an unknown path shows Page not found', async ({ page }) => {
    await page.goto('/no/such/page');
    await expect(page).toHaveURL(/\/404$/);
    await expect(page.getByText('Page not found')).toBeVisible();
    await expectAccessible(page);
  });
});
