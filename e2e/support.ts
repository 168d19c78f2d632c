/**
 * Shared steps of the end-to-end specs: signing in through the real provider, the axe check,
 * locators, and screenshots (SHOTS_DIR=<folder> saves each screen at laptop and phone width).
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';

export const PASSWORD = 'portal-demo';

/** The master secret the specs provide: whichever spec runs first provides it, the others find it. */
export const MASTER_SECRET = 'e2e-master-secret-0123456789';

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

/** A toast (SPEC.md §9) with this text. */
export const toast = (page: Page, text: string | RegExp) => page.getByRole('alert').filter({ hasText: text });

/** Table rows with this text. */
export const row = (page: Page, text: string | RegExp) => page.getByRole('row').filter({ hasText: text });

const SHOTS_DIR = process.env.SHOTS_DIR;
const VIEWPORTS = [
  { name: 'laptop', width: 1280, height: 800 },
  { name: 'phone', width: 390, height: 844 },
] as const;

/**
 * With SHOTS_DIR set: full-page screenshots at laptop and phone width, and the axe check at phone
 * width too; then the viewport as it was. Without it, nothing.
 */
export async function shoot(page: Page, name: string) {
  if (!SHOTS_DIR) return;
  fs.mkdirSync(SHOTS_DIR, { recursive: true });
  const before = page.viewportSize();
  for (const viewport of VIEWPORTS) {
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.waitForTimeout(300);
    await page.screenshot({ path: path.join(SHOTS_DIR, `${name}-${viewport.name}.png`), fullPage: true });
    if (viewport.name === 'phone') await expectAccessible(page);
  }
  if (before) await page.setViewportSize(before);
}
