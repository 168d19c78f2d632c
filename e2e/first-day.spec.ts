/**
 * What people met on their first day (issue 34 item 5): the keyboard path from sign-in through upload to approval
 * with the skip link and no focus that jumps, axe on the open date picker and the phone menu in both schemes, and
 * the Days valid field that refuses bad days with a message instead of rewriting them.
 */
import type { Page } from '@playwright/test';
import { makeCertificate } from '../scripts/make-certificate';
import { expect, expectAccessible, organizationIdOf, row, signInToCertificates, test, toast } from './support';

const DAY = 86_400_000;

/** Presses Tab until the element named `name` has the focus; answers how many presses it took (at most `limit`). */
async function tabTo(page: Page, name: string, limit: number): Promise<number> {
  for (let stops = 1; stops <= limit; stops++) {
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => {
      const e = document.activeElement as HTMLInputElement | null;
      return (e?.getAttribute('aria-label') ?? e?.labels?.[0]?.textContent ?? e?.textContent ?? '').replace(/\s*\*$/, '').trim();
    });
    if (focused === name) return stops;
  }
  throw new Error(`"${name}" not reached in ${limit} Tab stops`);
}

test('keyboard only: sign-in, the skip link to Upload, the upload, and the approval', async ({ page, newPage }) => {
  const cn = `e2e-keys-${Date.now()}-${Math.random().toString(36).slice(2, 7)}`;
  const { pem } = await makeCertificate({ subject: `C=DE, O=Contoso, CN=${cn}.contoso.example`, notBefore: new Date(Date.now() - DAY), notAfter: new Date(Date.now() + 90 * DAY) });
  const dn = `CN=${cn}.contoso.example,O=Contoso,C=DE`;
  await signInToCertificates(page, 'issuer@contoso.example');

  // Through the header: every stop lands on something, and the organization select keeps no focus it was left by.
  await tabTo(page, 'Switch to dark mode', 12);
  await page.keyboard.press('Tab');
  await expect(page.getByRole('combobox', { name: 'Organization' })).toBeFocused();
  await page.keyboard.press('Tab');
  const overview = page.getByRole('link', { name: 'Overview' });
  await expect(overview).toBeFocused();
  // The Select's code arrives meanwhile: it used to take the focus back about 0.1 s later.
  await page.waitForTimeout(500);
  await expect(overview).toBeFocused();

  // The skip link is the first stop and leads to the page: Upload is a few stops away, not 22.
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Certificates' })).toBeVisible();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: 'Skip to content' })).toBeFocused();
  await page.keyboard.press('Enter');
  expect(await tabTo(page, 'Upload certificate', 4)).toBeLessThanOrEqual(4);
  await page.waitForTimeout(300);
  await expect(page.getByRole('link', { name: 'Upload certificate' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: 'Upload certificate' })).toBeVisible();

  // The focus stays where the link was, in the page: the form's first field is the next stop but one.
  await tabTo(page, 'Description', 6);
  await page.keyboard.type('Uploaded by keyboard');
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Certificate', { exact: true })).toBeFocused();
  await page.keyboard.insertText(pem);
  await tabTo(page, 'Upload certificate', 5);
  await page.keyboard.press('Enter');
  await expect(toast(page, `Certificate ${dn} uploaded.`)).toBeVisible();
  const contoso = organizationIdOf(page);

  // The approver opens it, skips to the page and approves with the keyboard.
  const approver = await newPage();
  await signInToCertificates(approver, 'approver@operator.example');
  await approver.goto(`/organizations/${contoso}/certificates/${encodeURIComponent(dn)}`);
  await expect(approver.getByRole('heading', { level: 1, name: dn })).toBeVisible();
  await approver.keyboard.press('Tab');
  await expect(approver.getByRole('link', { name: 'Skip to content' })).toBeFocused();
  await approver.keyboard.press('Enter');
  await tabTo(approver, 'Approve', 15);
  await approver.keyboard.press('Enter');
  await expect(toast(approver, 'Certificate approved.')).toBeVisible();
});

test('the open date picker of a license request is accessible in both schemes', async ({ page }) => {
  await signInToCertificates(page, 'issuer@contoso.example');
  await page.goto(`/organizations/${organizationIdOf(page)}/licenses/new`);
  await expect(page.getByRole('heading', { level: 1, name: 'Request license' })).toBeVisible();
  await page.getByRole('button', { name: 'Valid from' }).click();
  await expect(page.getByRole('dialog')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Previous month' })).toBeVisible();
  await expectAccessible(page);
});

test('the open phone menu is accessible in both schemes, and leads to Release Notes written for users', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signInToCertificates(page, 'issuer@contoso.example');
  await page.getByRole('button', { name: 'Open the menu' }).click();
  await expect(page.getByRole('menuitem', { name: 'Release Notes' })).toBeVisible();
  await expectAccessible(page);

  // Release Notes say what changed for a user; the engineering changelog (databases, metrics, gzip) is for operators.
  await page.getByRole('menuitem', { name: 'Release Notes' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Release Notes' })).toBeVisible();
  await expect(page.getByRole('main')).toContainText('Days valid');
  await expect(page.getByRole('main')).not.toContainText(/PostgreSQL|Prometheus|gzip|SQLite/);
});

test('Days valid refuses 0, negative, fractional and too many days with a message, and keeps what was typed', async ({ page }) => {
  let sent = 0;
  page.on('request', (request) => {
    if (request.method() === 'POST' && /\/api\/organizations\/[^/]+\/licenses$/.test(request.url())) sent++;
  });
  await signInToCertificates(page, 'issuer@contoso.example');
  await page.goto(`/organizations/${organizationIdOf(page)}/licenses/new`);
  const days = page.getByLabel('Days valid');
  await expect(days).toHaveValue('20');
  await expect(days).toHaveAccessibleDescription(/Last valid day/);
  await page.getByLabel('License name').fill(`E2E days ${Date.now().toString(36)}`);

  for (const [typed, message] of [['0', /at least 1 day/i], ['-5', /at least 1 day/i], ['1000000', /at most 3650 days/i], ['1.5', /whole number/i]] as const) {
    await days.fill(typed);
    await expect(days).toHaveValue(typed);
    await expect(days).toHaveAttribute('aria-invalid', 'true');
    await expect(days).toHaveAccessibleDescription(message);
  }
  await expectAccessible(page);

  // Submitting bad days sends nothing (it used to request 20 days after a 0).
  await days.fill('0');
  await page.getByRole('button', { name: 'Request license' }).click();
  await expect(days).toBeFocused();
  await expect(days).toHaveAccessibleDescription(/at least 1 day/i);
  expect(sent).toBe(0);

  await days.fill('30');
  await expect(days).not.toHaveAttribute('aria-invalid', 'true');
  await expect(days).toHaveAccessibleDescription(/Last valid day/);
});

test('Acknowledge expiry once the expiry is near, and a revoked certificate’s validity grey', async ({ page }) => {
  await signInToCertificates(page, 'issuer@contoso.example');
  const list = `/organizations/${organizationIdOf(page)}/certificates`;
  // The seed's leaked key: revoked, its dates still valid. Its Valid badge has the grey of Not valid, not the green of valid.
  const colour = (text: string, cn: string) => row(page, cn).getByText(text, { exact: true }).evaluate((e) => getComputedStyle(e.closest('.mantine-Badge-root')!).color);
  await expect(row(page, 'lab-leaked')).toContainText('Revoked');
  expect(await colour('Valid', 'lab-leaked')).toBe(await colour('Not valid', 'gw-munich'));
  expect(await colour('Valid', 'lab-leaked')).not.toBe(await colour('Valid', 'gw-berlin'));

  const open = async (cn: string) => {
    await page.goto(`${list}/${encodeURIComponent(`CN=${cn}.contoso.example,OU=Gateways,O=Contoso,C=DE`)}`);
    await expect(page.getByRole('heading', { level: 1, name: new RegExp(cn) })).toBeVisible();
  };
  // Expired 5 days ago: acknowledging means something. Valid for 335 more days: not offered.
  await open('gw-munich');
  await expect(page.getByRole('button', { name: 'Acknowledge expiry' })).toBeVisible();
  await open('gw-berlin');
  await expect(page.getByText('Berlin gateway')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Acknowledge expiry' })).toHaveCount(0);
});
