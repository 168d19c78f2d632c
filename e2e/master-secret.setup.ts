/**
 * Runs before the specs (the "setup" project of playwright.config.ts): devops provides the master
 * secret on its screen, as the operator does after a start. License keys and API tokens need it,
 * so no spec depends on which other spec happens to run first.
 */
import type { Page } from '@playwright/test';
import { MASTER_SECRET, expect, expectAccessible, shoot, signInToCertificates, test } from './support';

const heading = (page: Page, name: string) => page.getByRole('heading', { level: 1, name, exact: true });

test('devops provides the master secret', async ({ page }) => {
  await signInToCertificates(page, 'devops@operator.example');
  await page.goto('/admin/secret');
  await expect(heading(page, 'Provide Secret')).toBeVisible();
  const provided = page.getByText('Secret already provided!');
  const missing = page.getByText('Secret not yet provided!');
  await expect(provided.or(missing)).toBeVisible();
  await expectAccessible(page);
  // A run on a fresh data folder (npm run test:e2e) finds it missing; a rerun on ./data/e2e finds it provided.
  if (await provided.isVisible()) return;

  // Without the secret, the token screen says so and links here.
  await page.getByLabel('Admin sidebar').getByRole('link', { name: 'New Token' }).click();
  await expect(heading(page, 'New Token')).toBeVisible();
  await expect(page.getByText('Secret not yet provided!')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Provide Secret' }).last()).toHaveAttribute('href', '/admin/secret');
  await expectAccessible(page);
  await shoot(page, 'token-no-secret');

  await page.getByRole('link', { name: 'Provide Secret' }).last().click();
  await expect(heading(page, 'Provide Secret')).toBeVisible();
  await page.getByLabel('Master secret').fill(MASTER_SECRET);
  await page.getByRole('button', { name: 'Provide secret' }).click();
  await expect(page.getByText('successful set')).toBeVisible();
  await expect(provided).toBeVisible();
  await expect(page.getByRole('button', { name: 'Provide secret' })).toBeDisabled();
  await expectAccessible(page);
});
