/** Shared steps of the end-to-end specs: signing in through the real provider, and the axe check. */
import { expect, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';

export const PASSWORD = 'portal-demo';

/** Signs in on the built-in provider's page, as a person would. */
export async function signIn(page: Page, email: string) {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** Signs in and waits for the Certificates page of the person's organization. */
export async function signInToCertificates(page: Page, email: string) {
  await signIn(page, email);
  await expect(page).toHaveURL(/\/organizations\/[^/]+\/certificates$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Certificates' })).toBeVisible();
}

/** No axe violations at WCAG 2.1 A/AA on the screen as it is now. */
export async function expectAccessible(page: Page) {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  const summary = results.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
  expect(summary).toEqual([]);
}

/** The id in /organizations/{id}/... of the current URL. */
export function organizationIdOf(page: Page): string {
  return /\/organizations\/([^/]+)/.exec(new URL(page.url()).pathname)?.[1] ?? '';
}
