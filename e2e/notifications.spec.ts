/**
 * The Notifications screen end to end (issue 13 items 2, 4 and 5): Northwind's administrator adds
 * the expiry threshold 60 to the rules (Certificate approved stays on) and registers a webhook
 * pointing at a receiver this test runs on 127.0.0.1 (the e2e server allows private addresses,
 * WEBHOOK_ALLOW_PRIVATE); the secret shows once. The operator's approver approves a waiting
 * certificate of Northwind; the administrator's bell counts the notice, which opens the
 * certificate; the receiver gets the event signed with that secret (verified by the
 * standardwebhooks library); the endpoint's delivery log shows it delivered, its attempts and
 * payload, and a redelivery arrives under a new webhook-id; after a rotation a redelivery is signed by
 * the new secret and the old one. The endpoint is deleted at the end. Then an endpoint is edited in
 * its dialog (no event refused at the field), and an issuer, who may not manage notifications, finds
 * no link and is told at the address which role it needs.
 * SHOTS_DIR saves the screens at laptop and phone width.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from '@playwright/test';
import { Webhook } from 'standardwebhooks';
import type { NoticePage, NotificationSettingsView } from '../common/schemas/notifications';
import { makeCertificate } from '../scripts/make-certificate';
import { apiAs, apiOf, expect, expectAccessible, row, shoot, signInToCertificates, test, toast, type Api } from './support';

const DAY = 86_400_000;
const STAGING = 'staging.northwind.example';

interface Received {
  headers: Record<string, string>;
  body: string;
}

/** A webhook receiver on 127.0.0.1 and a free port: keeps what arrives, answers 204. */
async function startReceiver() {
  const received: Received[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const headers = Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, String(value)]));
      received.push({ headers, body: Buffer.concat(chunks).toString('utf8') });
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/portal-hooks`, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** The receiver's deliveries of one event type about one subject, each verified with the endpoint's secret. */
function deliveriesAbout(received: Received[], secret: string, type: string, subjectId: string) {
  const verifier = new Webhook(secret);
  return received
    .map(({ headers, body }) => ({ id: headers['webhook-id'], body, payload: verifier.verify(body, headers) as { type: string; data: { subject: { id: string } } } }))
    .filter(({ payload }) => payload.type === type && payload.data.subject.id === subjectId);
}

/**
 * A certificate of Northwind waiting for approval: the demo's staging gateway while it still
 * waits (a first run), else one the issuer uploads now (a run on kept data).
 */
async function waitingCertificate(newPage: () => Promise<Page>, northwindId: string, admin: Api): Promise<string> {
  const found = await admin.call<{ distinguished_name: string; date_approved: string | null; date_revoked: string | null }[]>(
    'GET',
    `/api/organizations/${northwindId}/certificates`,
    { params: { name: STAGING, limit: 10 } },
  );
  const staging = found.find((c) => c.distinguished_name.includes(`CN=${STAGING}`) && !c.date_approved && !c.date_revoked);
  if (staging) return staging.distinguished_name;
  const issuer = await apiAs(newPage, 'issuer@northwind.example');
  const { pem } = await makeCertificate({
    subject: `O=Northwind Networks, CN=notify-${Date.now()}.northwind.example`,
    notBefore: new Date(Date.now() - DAY),
    notAfter: new Date(Date.now() + 200 * DAY),
  });
  const uploaded = await issuer.call<{ distinguished_name: string }>('POST', `/api/organizations/${northwindId}/certificates`, { data: { description: 'Notifications test gateway', certificate: pem } });
  return uploaded.distinguished_name;
}

const bell = (page: Page) => page.getByRole('button', { name: /^Notifications, \d+ unread$/ });

async function unreadShown(page: Page): Promise<number> {
  const name = (await bell(page).getAttribute('aria-label')) ?? '';
  return Number(/(\d+) unread/.exec(name)?.[1] ?? NaN);
}

test('an administrator sets a rule and a webhook; an approval shows under the bell and in the delivery log', async ({ page, newPage, context }) => {
  const receiver = await startReceiver();
  try {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await signInToCertificates(page, 'admin@northwind.example');
    const admin = await apiOf(page);
    const northwindId = admin.organizationId;
    const before = await admin.call<NotificationSettingsView>('GET', `/api/organizations/${northwindId}/notifications`);

    // The sidebar's link opens the rules; nothing saved yet shows as the defaults.
    await page.getByLabel('Organization sidebar').getByRole('link', { name: 'Notifications', exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/organizations/${northwindId}/notifications$`));
    await expect(page.getByRole('heading', { level: 1, name: 'Notifications' })).toBeVisible();
    const rules = page.getByRole('form', { name: 'Notification rules' });
    if (before.is_default) await expect(page.getByText('Defaults', { exact: true })).toBeVisible();
    else await expect(page.getByText(/^Saved \d{2}-[A-Z]{3}-\d{4}/)).toBeVisible();
    if (!before.email_configured) await expect(rules.getByText('This portal has no mail server configured: notices appear in the portal only')).toBeVisible();
    await expect(rules.getByRole('checkbox', { name: 'Certificate approved' })).toBeChecked();
    await expect(rules.getByRole('checkbox', { name: 'Administrator' })).toBeChecked();
    await expectAccessible(page);
    await shoot(page, 'notifications-rules');

    // Thresholds: a number out of range is refused at the box; 60 joins the list, longest first.
    const thresholds = rules.getByRole('list', { name: 'Expiry thresholds' });
    if (before.expiry_days.includes(60)) await rules.getByRole('button', { name: 'Remove 60 days' }).click();
    await rules.getByLabel('New threshold (days)').fill('400');
    await rules.getByRole('button', { name: 'Add threshold' }).click();
    await expect(rules.getByText('A whole number of days from 1 to 365.')).toBeVisible();
    await rules.getByLabel('New threshold (days)').fill('60');
    await rules.getByRole('button', { name: 'Add threshold' }).click();
    await expect(thresholds.getByRole('listitem').first()).toHaveText('60 days');
    await rules.getByRole('button', { name: 'Save rules' }).click();
    await expect(toast(page, 'Saved the notification rules of Northwind Networks.')).toBeVisible();
    await expect(page.getByText(/^Saved \d{2}-[A-Z]{3}-\d{4}/)).toBeVisible();
    const saved = await admin.call<NotificationSettingsView>('GET', `/api/organizations/${northwindId}/notifications`);
    expect(saved.is_default).toBe(false);
    expect(saved.expiry_days).toContain(60);
    expect(saved.events).toContain('certificate.approved');
    expect(saved.recipient_roles).toContain('ADMINISTRATOR');

    // A webhook to the receiver: the secret shows once, and Copy puts it on the clipboard.
    await page.getByRole('tab', { name: 'Webhooks' }).click();
    await expect(page).toHaveURL(/#webhooks$/);
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const form = page.getByRole('dialog', { name: 'Add webhook endpoint' });
    await form.getByLabel('URL').fill(receiver.url);
    await form.getByLabel('Description').fill('End-to-end receiver');
    await expect(form.getByRole('checkbox', { name: 'Certificate approved' })).toBeChecked();
    await expect(form.getByRole('switch', { name: 'Active' })).toBeChecked();
    await expectAccessible(page);
    await shoot(page, 'notifications-webhook-form');
    await form.getByRole('button', { name: 'Add endpoint' }).click();
    const secretDialog = page.getByRole('dialog', { name: 'Signing secret' });
    await expect(secretDialog.getByText('Shown only once')).toBeVisible();
    const secret = await secretDialog.getByLabel('Secret').inputValue();
    expect(secret).toMatch(/^whsec_/);
    await secretDialog.getByRole('button', { name: 'Copy' }).click();
    await expect(secretDialog.getByRole('button', { name: 'copied!' })).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    await expectAccessible(page);
    await shoot(page, 'notifications-webhook-secret');
    await secretDialog.getByRole('button', { name: 'Done' }).click();
    await expect(secretDialog).toBeHidden();
    const endpointRow = row(page, receiver.url);
    await expect(endpointRow).toContainText('Active');
    await expect(endpointRow).toContainText('None yet');
    await expectAccessible(page);
    await shoot(page, 'notifications-webhooks');

    // The operator's approver approves a waiting certificate of Northwind.
    const dn = await waitingCertificate(newPage, northwindId, admin);
    await admin.call('POST', '/api/notices/read', { data: {} });
    await page.evaluate(() => window.dispatchEvent(new Event('focus')));
    await expect(bell(page)).toHaveAccessibleName('Notifications, 0 unread');
    const approver = await apiAs(newPage, 'approver@operator.example');
    await approver.call('POST', `/api/approve/${encodeURIComponent(dn)}`);

    // The bell counts the notice (asked again on focus, as when the person comes back); it opens the certificate.
    await expect
      .poll(async () => {
        await page.evaluate(() => window.dispatchEvent(new Event('focus')));
        return unreadShown(page);
      }, { timeout: 30_000 })
      .toBeGreaterThan(0);
    const notices = await admin.call<NoticePage>('GET', '/api/notices', { params: { unread: 'true', limit: 100 } });
    expect(notices.items.some((n) => n.event_type === 'certificate.approved' && n.title.includes(dn))).toBe(true);
    await bell(page).click();
    const popover = page.getByRole('dialog', { name: /^Notifications, \d+ unread$/ });
    await popover.getByRole('link', { name: new RegExp(`Unread: Approved certificate ${escape(dn)}`) }).click();
    await expect(page).toHaveURL(new RegExp(`/organizations/${northwindId}/certificates/${escape(encodeURIComponent(dn))}$`));
    await expect(page.getByRole('heading', { level: 1 })).toContainText(dn);

    // The receiver got the approval once, signed with the secret shown.
    await expect.poll(() => deliveriesAbout(receiver.received, secret, 'certificate.approved', dn).length, { timeout: 30_000 }).toBe(1);
    const [first] = deliveriesAbout(receiver.received, secret, 'certificate.approved', dn);

    // The endpoint's page: the delivery delivered, with its attempt and payload.
    await page.getByLabel('Organization sidebar').getByRole('link', { name: 'Notifications', exact: true }).click();
    await page.getByRole('tab', { name: 'Webhooks' }).click();
    await expect(endpointRow).toContainText('Delivered');
    await endpointRow.getByRole('link', { name: receiver.url }).click();
    await expect(page).toHaveURL(new RegExp(`/organizations/${northwindId}/notifications/webhooks/[^/]+$`));
    await expect(page.getByRole('heading', { level: 1, name: 'Webhook endpoint' })).toBeVisible();
    const approved = page.getByRole('table', { name: 'Deliveries' }).getByRole('row').filter({ hasText: 'certificate.approved' });
    await expect(approved.first()).toContainText('Delivered');
    await expect(approved.first()).toContainText('HTTP 204');
    await expectAccessible(page);
    await shoot(page, 'notifications-webhook-page');
    await approved.first().getByRole('button', { name: /^Details of Certificate approved/ }).click();
    const details = page.getByRole('dialog', { name: 'Delivery' });
    await expect(details.getByText(first.id, { exact: true })).toBeVisible();
    await expect(details.getByRole('table', { name: 'Attempts' }).getByRole('row')).toHaveCount(2);
    await expect(details.getByLabel('Payload')).toContainText(dn);
    await expectAccessible(page);
    await shoot(page, 'notifications-delivery');

    // Redeliver: the same payload again under the event's webhook-id, so the receiver can tell it is a copy.
    await details.getByRole('button', { name: 'Redeliver' }).click();
    await expect(toast(page, 'Queued “Certificate approved” for delivery again.')).toBeVisible();
    await expect(details).toBeHidden();
    await expect.poll(() => deliveriesAbout(receiver.received, secret, 'certificate.approved', dn).length, { timeout: 30_000 }).toBe(2);
    const [, again] = deliveriesAbout(receiver.received, secret, 'certificate.approved', dn);
    expect(again.id).toBe(first.id);
    expect(again.body).toBe(first.body);
    await expect(approved).toHaveCount(2);
    await expect(approved.filter({ hasText: 'Delivered' })).toHaveCount(2);

    // Rotate, confirmed: a new secret shows once; for 24 hours deliveries are signed by both.
    await page.getByRole('button', { name: 'Rotate secret' }).click();
    await page.getByRole('dialog', { name: 'Rotate the signing secret?' }).getByRole('button', { name: 'Rotate secret' }).click();
    const rotated = page.getByRole('dialog', { name: 'Signing secret' });
    await expect(rotated.getByText(/^The previous secret signs too until \d{2}-[A-Z]{3}-\d{4}/)).toBeVisible();
    const newSecret = await rotated.getByLabel('Secret').inputValue();
    expect(newSecret).toMatch(/^whsec_/);
    expect(newSecret).not.toBe(secret);
    await rotated.getByRole('button', { name: 'Done' }).click();
    await expect(page.getByText(/^Signs too until/)).toBeVisible();
    const afterRotation = receiver.received.length;
    await approved.first().getByRole('button', { name: 'Redeliver' }).click();
    await expect.poll(() => deliveriesAbout(receiver.received.slice(afterRotation), newSecret, 'certificate.approved', dn).length, { timeout: 30_000 }).toBe(1);
    expect(deliveriesAbout(receiver.received.slice(afterRotation), secret, 'certificate.approved', dn)).toHaveLength(1);

    // Delete, confirmed: back on the list, without it.
    await page.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog', { name: 'Delete webhook endpoint?' }).getByRole('button', { name: 'Delete endpoint' }).click();
    await expect(toast(page, `Deleted the webhook endpoint ${receiver.url}.`)).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`/organizations/${northwindId}/notifications#webhooks$`));
    await expect(row(page, receiver.url)).toHaveCount(0);
  } finally {
    await receiver.close();
  }
});

test('an endpoint is edited in its dialog; an issuer has no Notifications link and is told why at its address', async ({ page, newPage }) => {
  await signInToCertificates(page, 'admin@northwind.example');
  const admin = await apiOf(page);
  const url = `http://127.0.0.1:9/edit-${Date.now()}`;
  const { endpoint } = await admin.call<{ endpoint: { endpoint_id: string } }>('POST', `/api/organizations/${admin.organizationId}/webhooks`, {
    data: { url, description: 'Before the edit', events: ['certificate.approved', 'license.approved'], active: true },
  });
  try {
    await page.goto(`/organizations/${admin.organizationId}/notifications#webhooks`);
    const endpointRow = row(page, url);
    await expect(endpointRow).toContainText('Active');
    await endpointRow.getByRole('button', { name: `Edit ${url}` }).click();
    const form = page.getByRole('dialog', { name: 'Edit webhook endpoint' });
    // The dialog holds what is saved.
    await expect(form.getByLabel('URL')).toHaveValue(url);
    await expect(form.getByLabel('Description')).toHaveValue('Before the edit');
    await expect(form.getByRole('checkbox', { name: 'License approved' })).toBeChecked();
    await expect(form.getByRole('checkbox', { name: 'Certificate expired' })).not.toBeChecked();
    // No event at all is refused at the field; then one event, a new description, inactive.
    await form.getByRole('checkbox', { name: 'Certificate approved' }).uncheck();
    await form.getByRole('checkbox', { name: 'License approved' }).uncheck();
    await form.getByRole('button', { name: 'Save endpoint' }).click();
    await expect(form.getByRole('group', { name: 'Events' })).toContainText(/choose at least one event/i);
    await form.getByRole('checkbox', { name: 'Certificate expired' }).check();
    await form.getByLabel('Description').fill('After the edit');
    await form.getByRole('switch', { name: 'Active' }).uncheck();
    await expectAccessible(page);
    await form.getByRole('button', { name: 'Save endpoint' }).click();
    await expect(toast(page, `Saved the webhook endpoint ${url}.`)).toBeVisible();
    await expect(form).toBeHidden();
    await expect(endpointRow).toContainText('Inactive');
    const { items } = await admin.call<{ items: { endpoint_id: string; description: string; events: string[]; active: boolean }[] }>('GET', `/api/organizations/${admin.organizationId}/webhooks`);
    expect(items.find((w) => w.endpoint_id === endpoint.endpoint_id)).toMatchObject({ description: 'After the edit', events: ['certificate.expired'], active: false });
  } finally {
    await admin.call('DELETE', `/api/organizations/${admin.organizationId}/webhooks/${endpoint.endpoint_id}`);
  }

  // An issuer of the same organization: no link in the sidebar; the address says which role it needs.
  const issuerPage = await newPage();
  await signInToCertificates(issuerPage, 'issuer@northwind.example');
  const sidebar = issuerPage.getByLabel('Organization sidebar');
  await expect(sidebar.getByRole('link', { name: 'Certificates', exact: true })).toBeVisible();
  await expect(sidebar.getByRole('link', { name: 'Notifications', exact: true })).toHaveCount(0);
  await issuerPage.goto(`/organizations/${admin.organizationId}/notifications`);
  await expect(issuerPage.getByText('You may not change the notifications here')).toBeVisible();
  await expect(issuerPage.getByText(/Changing the notifications needs the Supervisor or Administrator role in this organization/)).toBeVisible();
  await expect(issuerPage.getByRole('tab')).toHaveCount(0);
  await expectAccessible(issuerPage);
});

/** The text as a literal in a RegExp. */
function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
