/**
 * Members, roles, organizations and the journal end to end (SPEC.md §2, §5, §6): a partner's
 * administrator assigns and unassigns a role in its customer; the operator's supervisor bans an
 * organization (its member is stopped at the next step) and unbans it; a new organization with a
 * trusted domain, its journal and the sign-in status check. Axe runs on every screen.
 * Set SHOTS_DIR to also save screenshots of the screens at 1280x800 and 390x844.
 */
import type { Page } from '@playwright/test';
import { apiOf, expect, expectAccessible, organizationIdOf, row, shoot, signInToCertificates, test, toast } from './support';


const heading = (page: Page, name: string | RegExp) => page.getByRole('heading', { level: 1, name });
const sidebarLink = (page: Page, name: string) => page.getByLabel('Organization sidebar').getByRole('link', { name, exact: true });

async function switchOrganization(page: Page, name: string) {
  await page.getByRole('combobox', { name: 'Organization' }).click();
  await page.getByRole('option', { name, exact: true }).click();
  await expect(page.getByRole('combobox', { name: 'Organization' })).toHaveValue(name);
}

async function filterList(page: Page, label: string, text: string) {
  await page.getByLabel(label).fill(text);
  await page.getByRole('button', { name: 'Filter', exact: true }).click();
  const query = new URLSearchParams({ filter: text }).toString().replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  await expect(page).toHaveURL(new RegExp(`[?&]${query}(&|$)`));
}

/** Opens the admin area's screen from its sidebar. */
async function openAdmin(page: Page, screen: string) {
  await page.getByRole('link', { name: 'Admin', exact: true }).click();
  // /admin opens on the pending tasks first; choose the screen only after that redirect.
  await expect(page).toHaveURL(/\/admin\/pending-tasks$/);
  await page.getByLabel('Admin sidebar').getByRole('link', { name: screen, exact: true }).click();
}

/** An option by its label: role and scope options go on with a line that explains them (issue 34). */
const optionNamed = (page: Page, option: string) => page.getByRole('option', { name: new RegExp(`^${option}(?![a-z])`) });

async function chooseOption(page: Page, label: string, option: string) {
  await page.getByRole('textbox', { name: label, exact: true }).or(page.getByRole('combobox', { name: label, exact: true })).click();
  await optionNamed(page, option).click();
}

test.describe('members, roles, organizations and the journal', () => {
  test('a partner administrator assigns and unassigns a role in its customer', async ({ page }) => {
    await signInToCertificates(page, 'admin@northwind.example');
    await switchOrganization(page, 'Contoso');
    const contoso = organizationIdOf(page);

    await sidebarLink(page, 'Members').click();
    await expect(page).toHaveURL(new RegExp(`/organizations/${contoso}/members$`));
    await expect(heading(page, 'Members')).toBeVisible();
    await expect(row(page, 'member@contoso.example')).toContainText('Member');
    await expectAccessible(page);
    await shoot(page, 'members');

    await filterList(page, 'Filter by name or email', 'nobody-here');
    await expect(page.getByText('No members found.')).toBeVisible();
    await filterList(page, 'Filter by name or email', 'issuer@contoso');
    await expect(page.getByRole('row')).toHaveCount(2);

    // Isla's certificates: badges and links to the details.
    await page.getByRole('link', { name: 'Isla Contoso' }).click();
    await expect(heading(page, 'Isla Contoso')).toBeVisible();
    await page.getByRole('tab', { name: 'Certificates' }).click();
    await expect(page).toHaveURL(/#certificates$/);
    const berlin = row(page, 'CN=gw-berlin.contoso.example');
    await expect(berlin.getByRole('link', { name: /CN=gw-berlin\.contoso\.example/ })).toBeVisible();
    await expect(berlin).toContainText('Approved');
    await expect(berlin).toContainText('Valid');
    await expect(row(page, 'CN=lab-leaked.contoso.example')).toContainText('Revoked');
    await expectAccessible(page);
    await shoot(page, 'member-certificates');

    // Max's contact details: a form for an administrator, the email read-only.
    await page.goto(`/organizations/${contoso}/members`);
    await page.getByRole('link', { name: 'Max Member' }).click();
    await expect(heading(page, 'Max Member')).toBeVisible();
    await expect(page.getByRole('tab', { name: 'Contact' })).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByLabel('Email', { exact: true })).toHaveAttribute('readonly', '');
    await page.getByLabel('Job role').fill('Network engineer');
    await page.getByLabel('Mobile phone').fill('call me');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByLabel('Mobile phone')).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByLabel('Mobile phone')).toHaveAccessibleDescription(/digits, spaces, \+ \( \) \. \/ - and an optional extension/i);
    await page.getByLabel('Mobile phone').fill('+49 170 1234567');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(toast(page, 'Saved Max Member.')).toBeVisible();
    await expectAccessible(page);
    await shoot(page, 'member-contact');

    // The Roles tab is kept in the URL: a reload opens it again.
    await page.getByRole('tab', { name: 'Roles' }).click();
    await expect(page).toHaveURL(/#roles$/);
    await page.reload();
    await expect(page.getByRole('tab', { name: 'Roles' })).toHaveAttribute('aria-selected', 'true');
    await expect(row(page, 'Member')).toContainText('Organization');

    // Approver and Supervisor are for operator members only; Devops is not listed for a customer.
    const assign = page.getByRole('button', { name: 'Assign', exact: true });
    await expect(assign).toBeDisabled();
    await page.getByRole('textbox', { name: 'Role', exact: true }).or(page.getByRole('combobox', { name: 'Role', exact: true })).click();
    await expect(page.getByRole('option', { name: 'Approver' })).toHaveAttribute('aria-disabled', 'true');
    await expect(page.getByRole('option', { name: 'Supervisor' })).toHaveAttribute('aria-disabled', 'true');
    await expect(page.getByRole('option', { name: 'Devops' })).toHaveCount(0);
    await optionNamed(page, 'Issuer').click();
    await expect(assign).toBeDisabled();
    await chooseOption(page, 'Scope', 'Organization');
    await expect(assign).toBeEnabled();
    await expectAccessible(page);
    await assign.click();
    await expect(toast(page, 'Assigned Issuer (Organization) to Max Member.')).toBeVisible();
    const issuer = row(page, /Issuer/);
    await expect(issuer).toContainText('Contoso');
    await expect(issuer).toContainText('Organization');
    await shoot(page, 'member-roles');

    // Unassigning asks first, like every action that takes something away; Cancel keeps the role.
    await issuer.getByRole('button', { name: 'Unassign Issuer in Contoso' }).click();
    let confirm = page.getByRole('dialog', { name: 'Unassign Issuer?' });
    await expect(confirm).toContainText('Max Member loses the role Issuer (Organization) in Contoso');
    await expectAccessible(page);
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expect(confirm).toBeHidden();
    await expect(row(page, /Issuer/)).toHaveCount(1);
    await issuer.getByRole('button', { name: 'Unassign Issuer in Contoso' }).click();
    confirm = page.getByRole('dialog', { name: 'Unassign Issuer?' });
    await confirm.getByRole('button', { name: 'Unassign' }).click();
    await expect(toast(page, 'Unassigned Issuer from Max Member.')).toBeVisible();
    await expect(row(page, /Issuer/)).toHaveCount(0);

    // The journal of Contoso records both.
    await sidebarLink(page, 'Journal').click();
    await expect(heading(page, 'Journal')).toBeVisible();
    await filterList(page, 'Filter by reason or message', 'role_');
    // The unfiltered journal, kept until the filtered answer arrives, has both records too: its count tells them apart.
    await expect(page.getByText(/Showing records 1–2 of 2/)).toBeVisible();
    await expect(row(page, 'ROLE_ASSIGNED')).toContainText('Assigned ISSUER (ORGANIZATION) to member@contoso.example.');
    await expect(row(page, 'ROLE_UNASSIGNED')).toContainText('Unassigned ISSUER from member@contoso.example.');
    await expect(row(page, 'ROLE_ASSIGNED')).toContainText('admin@northwind.example');
    await expectAccessible(page);
    await shoot(page, 'journal');
    await filterList(page, 'Filter by reason or message', 'no such record at all');
    await expect(page.getByText('No audit records found.')).toBeVisible();
  });

  test('a member of Contoso sees the roles without actions', async ({ page }) => {
    await signInToCertificates(page, 'member@contoso.example');
    await sidebarLink(page, 'Members').click();
    await page.getByRole('link', { name: 'Isla Contoso' }).click();
    await expect(page.getByLabel('Email', { exact: true })).toHaveCount(0);
    await expect(page.getByText('issuer@contoso.example').first()).toBeVisible();
    await expect(page.getByRole('button', { name: 'Ban' })).toHaveCount(0);
    await page.getByRole('tab', { name: 'Roles' }).click();
    await expect(page.getByText('No action available')).toBeVisible();
    await expect(page.getByRole('button', { name: /Unassign/ })).toHaveCount(0);
    await expectAccessible(page);

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Self-Service', exact: true }).click();
    await expect(heading(page, 'Self-Service')).toBeVisible();
    await expect(row(page, 'Contoso')).toContainText('Member');
    await expectAccessible(page);
    await shoot(page, 'home');
  });

  test('a partner administrator bans, unbans and removes a newcomer of Contoso', async ({ page, newPage, browserProblems }) => {
    // The banned newcomer's next call.
    browserProblems.expectRefusal(403, /^\/api\//);
    // The newcomer joins Contoso through its trusted domain at the first sign-in (or is in it already).
    const newcomer = await newPage();
    await signInToCertificates(newcomer, 'newcomer@contoso.example');

    await signInToCertificates(page, 'admin@northwind.example');
    await switchOrganization(page, 'Contoso');
    await sidebarLink(page, 'Members').click();
    await filterList(page, 'Filter by name or email', 'newcomer');
    await page.getByRole('link', { name: 'Nell Newcomer' }).click();
    await expect(heading(page, 'Nell Newcomer')).toBeVisible();

    await page.getByRole('button', { name: 'Ban', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Ban Nell Newcomer' });
    await dialog.getByLabel('Note').fill('E2E: joined by mistake');
    await dialog.getByRole('button', { name: 'Ban', exact: true }).click();
    await expect(toast(page, 'Banned Nell Newcomer.')).toBeVisible();
    await expect(page.getByRole('main').getByText('Banned', { exact: true })).toBeVisible();
    await expect(page.getByText('Note: E2E: joined by mistake')).toBeVisible();
    await expectAccessible(page);
    await shoot(page, 'member-banned');

    await sidebarLink(newcomer, 'Members').click();
    await expect(newcomer).toHaveURL(/\/access-error$/);
    await newcomer.close();

    await page.getByRole('button', { name: 'Unban' }).click();
    await expect(toast(page, 'Unbanned Nell Newcomer.')).toBeVisible();
    await expect(page.getByText('Note: E2E: joined by mistake')).toHaveCount(0);

    await page.getByRole('button', { name: 'Remove' }).click();
    const confirm = page.getByRole('dialog', { name: 'Remove Nell Newcomer?' });
    await expect(confirm).toContainText('Removing is no ban');
    await expectAccessible(page);
    await confirm.getByRole('button', { name: 'Remove', exact: true }).click();
    await expect(toast(page, 'Removed Nell Newcomer.')).toBeVisible();
    await expect(heading(page, 'Members')).toBeVisible();
    await expect(row(page, 'newcomer@contoso.example')).toHaveCount(0);
    await expect(row(page, 'member@contoso.example')).toHaveCount(1);
  });

  test('a supervisor bans Contoso, which stops its member at the next step, and unbans it', async ({ page, newPage, browserProblems }) => {
    // The member's next call while Contoso is banned.
    browserProblems.expectRefusal(403, /^\/api\//);
    // The member signs in before the ban.
    const member = await newPage();
    await signInToCertificates(member, 'member@contoso.example');
    const contoso = organizationIdOf(member);

    await signInToCertificates(page, 'supervisor@operator.example');
    // Whatever happens below, Contoso is not left banned for the tests after this one.
    const supervisor = await apiOf(page);
    try {
      await banAndUnbanContoso(page, member, contoso);
    } finally {
      const organization = await supervisor.call<{ date_organization_banned: string | null }>('GET', `/api/organizations/${contoso}`);
      if (organization.date_organization_banned) await supervisor.call('POST', `/api/organizations/${contoso}/unban`);
    }
  });

  async function banAndUnbanContoso(page: Page, member: Page, contoso: string) {
    await openAdmin(page, 'Organizations');
    await expect(heading(page, 'Organizations')).toBeVisible();
    await expect(row(page, 'Fabrikam')).toContainText('Banned');
    await expectAccessible(page);
    await shoot(page, 'admin-organizations');
    await filterList(page, 'Filter by name', 'Conto');
    await expect(page.getByRole('row')).toHaveCount(2);
    await page.getByRole('link', { name: 'Contoso', exact: true }).click();
    await expect(heading(page, 'Contoso')).toBeVisible();
    await expect(page.getByLabel('Trusted domains')).toHaveValue('contoso.example');
    await expect(page.getByRole('textbox', { name: 'Parent organization' }).or(page.getByRole('combobox', { name: 'Parent organization' }))).toBeEnabled();
    await expectAccessible(page);

    await page.getByRole('button', { name: 'Ban', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Ban Contoso' });
    await dialog.getByLabel('Note').fill('E2E: contract paused');
    await expectAccessible(page);
    await dialog.getByRole('button', { name: 'Ban', exact: true }).click();
    await expect(toast(page, 'Banned Contoso.')).toBeVisible();
    await expect(page.getByText('Note: E2E: contract paused')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Unban' })).toBeVisible();
    await expectAccessible(page);
    await shoot(page, 'admin-organization-banned');

    // The member's next step is refused.
    await sidebarLink(member, 'Members').click();
    await expect(member).toHaveURL(/\/access-error$/);

    await page.getByRole('button', { name: 'Unban' }).click();
    await expect(toast(page, 'Unbanned Contoso.')).toBeVisible();
    await expect(page.getByText('Note: E2E: contract paused')).toHaveCount(0);

    await member.goto(`/organizations/${contoso}/members`);
    await expect(heading(member, 'Members')).toBeVisible();
    await expect(row(member, 'issuer@contoso.example')).toBeVisible();

    // The journal of Contoso: the ban with its note, and the unban.
    await page.getByRole('link', { name: 'Journal' }).click();
    await expect(heading(page, 'Journal')).toBeVisible();
    await expect(row(page, 'ORGANIZATION_BANNED')).toContainText('Banned organization Contoso: E2E: contract paused');
    await expect(row(page, 'ORGANIZATION_UNBANNED')).toContainText('supervisor@operator.example');
    expect(organizationIdOf(page)).toBe(contoso);
  }

  test('a supervisor creates an organization with a trusted domain', async ({ page }) => {
    const stamp = Date.now();
    const name = `Tailspin ${stamp}`;
    const domain = `tailspin-${stamp}.example`;

    await signInToCertificates(page, 'supervisor@operator.example');
    await openAdmin(page, 'Organizations');
    await page.getByRole('link', { name: 'New organization' }).click();
    await expect(heading(page, 'New organization')).toBeVisible();
    const role = page.getByRole('textbox', { name: 'Role', exact: true }).or(page.getByRole('combobox', { name: 'Role', exact: true }));
    const parent = page.getByRole('textbox', { name: 'Parent organization' }).or(page.getByRole('combobox', { name: 'Parent organization' }));
    await expect(role).toHaveValue('Customer');
    await expect(parent).toHaveValue('Operator');
    await chooseOption(page, 'Role', 'Partner');
    await expect(parent).toBeDisabled();
    await chooseOption(page, 'Role', 'Customer');
    await expect(parent).toBeEnabled();

    // Bad input is not sent: each message under its field, the first (Name) focused.
    const nameInput = page.getByRole('textbox', { name: 'Name', exact: true });
    await page.getByLabel('Logo URL').fill('http://logo.example/logo.png');
    await page.getByLabel('Trusted domains').fill('not_a_domain');
    await page.getByRole('button', { name: 'Create organization' }).click();
    await expect(nameInput).toHaveAttribute('aria-invalid', 'true');
    await expect(nameInput).toHaveAccessibleDescription(/required/i);
    await expect(nameInput).toBeFocused();
    await expect(page.getByLabel('Logo URL')).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByLabel('Logo URL')).toHaveAccessibleDescription(/an https:\/\/ URL or empty/i);
    await expect(page.getByLabel('Trusted domains')).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByLabel('Trusted domains')).toHaveAccessibleDescription(/not a domain name: not_a_domain/i);
    await expect(heading(page, 'New organization')).toBeVisible();
    await expectAccessible(page);
    await page.getByLabel('Logo URL').fill('');
    await expect(page.getByLabel('Logo URL')).not.toHaveAttribute('aria-invalid', 'true');

    await nameInput.fill(name);
    await page.getByLabel('Website').fill(`www.${domain}`);
    await page.getByLabel('Trusted domains').fill(`@${domain.toUpperCase()}`);
    await page.getByLabel('Address').click();
    await expect(page.getByLabel('Website')).toHaveValue(`https://www.${domain}`);
    await expect(page.getByLabel('Trusted domains')).toHaveValue(domain);
    await expectAccessible(page);
    await shoot(page, 'admin-organization-new');
    await page.getByRole('button', { name: 'Create organization' }).click();

    await expect(toast(page, `Created ${name}.`)).toBeVisible();
    await expect(page).toHaveURL(/\/admin\/organizations\/[0-9a-f-]{36}$/);
    await expect(heading(page, name)).toBeVisible();
    await expect(page.getByLabel('Trusted domains')).toHaveValue(domain);
    await expect(page.getByRole('link', { name: `https://www.${domain}` })).toBeVisible();
    await expectAccessible(page);
    await shoot(page, 'admin-organization');

    await page.getByRole('tab', { name: 'Resources' }).click();
    await expect(page).toHaveURL(/#resources$/);
    await expectAccessible(page);
    await shoot(page, 'admin-organization-resources');

    // Its journal has the creation.
    await page.getByRole('link', { name: 'Journal' }).click();
    await expect(heading(page, 'Journal')).toBeVisible();
    await expect(row(page, 'ORGANIZATION_CREATED')).toContainText(`Created customer organization ${name}.`);

    // Whoever signs in with the new domain would join it: the sign-in status check says so.
    await openAdmin(page, 'User');
    await expect(heading(page, 'User')).toBeVisible();
    await filterList(page, 'Filter by name or email', 'member@contoso');
    await expect(row(page, 'Max Member')).toContainText('Contoso');
    await expectAccessible(page);
    await shoot(page, 'admin-users');
    await page.getByRole('link', { name: 'Max Member' }).click();
    await expect(heading(page, 'Max Member')).toBeVisible();
    await page.getByLabel('Email to check').fill(`newcomer@${domain}`);
    await page.getByRole('button', { name: 'Check' }).click();
    const status = page.getByRole('status').filter({ hasText: `newcomer@${domain}` });
    await expect(status).toContainText(`join ${name} as MEMBER through the trusted domain ${domain}`);
    await expect(status).toContainText('Can sign in');
    await expectAccessible(page);
    await shoot(page, 'member-status');
  });
});
