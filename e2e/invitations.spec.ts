/**
 * Invitations end to end (issue 34 item 2): Northwind's administrator invites outsider@elsewhere.example, whose
 * domain no organization trusts, as Issuer; the invitation is listed on Members; the invitee signs in through the
 * built-in provider and lands in Northwind with exactly that role. Axe on the Invite dialog and the list.
 */
import type { Page } from '@playwright/test';
import { expect, expectAccessible, organizationIdOf, row, shoot, signIn, signInToCertificates, SIGN_IN_TIMEOUT, test, toast } from './support';

const INVITEE = 'outsider@elsewhere.example';

async function choose(page: Page, label: string, option: string) {
  await page.getByRole('textbox', { name: label, exact: true }).or(page.getByRole('combobox', { name: label, exact: true })).click();
  await page.getByRole('option', { name: new RegExp(`^${option}(?![a-z])`) }).click();
}

test('an administrator invites an outsider, who joins with the invited role at sign-in', async ({ page, newPage }) => {
  await signInToCertificates(page, 'admin@northwind.example');
  const northwind = organizationIdOf(page);
  await page.getByLabel('Organization sidebar').getByRole('link', { name: 'Members', exact: true }).click();
  await expect(page.getByText('No open invitations.')).toBeVisible();

  await page.getByRole('button', { name: 'Invite', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Invite a member' });
  await dialog.getByLabel('Email').fill(INVITEE);
  await choose(page, 'Role', 'Issuer');
  // The chosen role and scope are explained under their boxes.
  await expect(dialog).toContainText('Uploads certificates and requests or renews licenses.');
  await expect(dialog).toContainText('In this organization only.');
  await expectAccessible(page);
  await shoot(page, 'invite-dialog');
  const sent = page.waitForResponse((r) => r.url().endsWith(`/api/organizations/${northwind}/invitations`) && r.request().method() === 'POST');
  await dialog.getByRole('button', { name: 'Send invitation' }).click();
  expect((await sent).status()).toBe(201);
  await expect(toast(page, `Invited ${INVITEE} as Issuer (Organization).`)).toBeVisible();
  const invitation = row(page, INVITEE);
  await expect(invitation).toContainText('Pending');
  await expect(invitation).toContainText('Issuer (Organization)');
  await expect(invitation.getByRole('button', { name: `Revoke the invitation of ${INVITEE}` })).toBeVisible();
  await expectAccessible(page);
  await shoot(page, 'invitations');

  // The invitee signs in with that address and lands in Northwind as Issuer.
  const invitee = await newPage();
  await signIn(invitee, INVITEE);
  await expect(invitee).toHaveURL(new RegExp(`/organizations/${northwind}/certificates$`), { timeout: SIGN_IN_TIMEOUT });
  await expect(invitee.getByRole('link', { name: 'Upload certificate' })).toBeVisible();

  await page.reload();
  await expect(row(page, INVITEE)).toContainText('Issuer');
  await expect(page.getByText('No open invitations.')).toBeVisible();
});
