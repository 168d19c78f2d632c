/**
 * The bell and the notices page end to end (issue 13 item 4): Contoso's issuer has certificates of
 * their own approved by the operator's approver, and each approval becomes a notice in the portal
 * (the notification worker runs in the e2e server, dispatching every 2 s). The bell in the header
 * counts them and asks again when the window gets the focus back; its popover lists the latest,
 * opening one marks it read and goes to the certificate; the notices page pages them by cursor,
 * filters the unread ones and marks them read, one or all. SHOTS_DIR saves the screens at laptop
 * and phone width.
 */
import type { Page } from '@playwright/test';
import type { NoticePage } from '../common/schemas/notifications';
import { answerTo, apiAs, expect, expectAccessible, shoot, signInToCertificates, test, type Api, uploadContosoCertificates } from './support';

/** The notices page's page size (web/features/notices/NoticesPage.tsx), and one more: two pages. */
const PAGE_SIZE = 20;

/** `count` certificates of Contoso by its issuer, valid for 200 days. */
const uploadCertificates = (issuer: Api, count: number) => uploadContosoCertificates(issuer, count, { prefix: 'notices', description: 'Notices test gateway', daysValid: 200 });

/** The issuer's unread notices about the given certificates (an approval's title names its DN). */
async function unreadAbout(issuer: Api, dns: string[]) {
  const page = await issuer.call<NoticePage>('GET', '/api/notices', { params: { unread: 'true', limit: 100 } });
  return page.items.filter((n) => dns.some((dn) => n.title.includes(dn)));
}

const bell = (page: Page) => page.getByRole('button', { name: /^Notifications, \d+ unread$/ });

/** The count the bell's name says. */
async function unreadShown(page: Page): Promise<number> {
  const name = (await bell(page).getAttribute('aria-label')) ?? '';
  return Number(/(\d+) unread/.exec(name)?.[1] ?? NaN);
}

const noticeRows = (page: Page) => page.getByRole('table', { name: 'Notices' }).getByRole('row').filter({ has: page.getByRole('rowheader') });

test('the bell counts the notices, opens one and marks all read; the notices page pages, filters and marks read', async ({ page, newPage }) => {
  const issuer = await apiAs(newPage, 'issuer@contoso.example');
  const approver = await apiAs(newPage, 'approver@operator.example');
  // The issuer's earlier notices (other specs' approvals, the demo's first scan) read: what is
  // unread from here on is this test's.
  await issuer.call('POST', '/api/notices/read', { data: {} });
  const { dns } = await uploadCertificates(issuer, PAGE_SIZE + 2);
  const [last, ...approvedFirst] = [dns.at(-1)!, ...dns.slice(0, -1)];
  for (const dn of approvedFirst) await approver.call('POST', `/api/approve/${encodeURIComponent(dn)}`);
  await expect.poll(async () => (await unreadAbout(issuer, approvedFirst)).length, { timeout: 30_000 }).toBe(approvedFirst.length);

  await signInToCertificates(page, 'issuer@contoso.example');
  await expect.poll(() => unreadShown(page)).toBeGreaterThanOrEqual(approvedFirst.length);
  const before = await unreadShown(page);

  // One more approval while the person is away: the bell asks again when the window gets the focus back.
  await approver.call('POST', `/api/approve/${encodeURIComponent(last)}`);
  await expect.poll(async () => (await unreadAbout(issuer, [last])).length, { timeout: 30_000 }).toBe(1);
  await page.evaluate(() => window.dispatchEvent(new Event('focus')));
  await expect.poll(() => unreadShown(page)).toBeGreaterThan(before);
  const counted = await unreadShown(page);
  await expect(bell(page).getByText(String(counted), { exact: true })).toBeVisible();

  // The popover: the latest ten, the newest approval among them.
  await bell(page).click();
  const popover = page.getByRole('dialog', { name: /^Notifications, \d+ unread$/ });
  await expect(popover).toBeVisible();
  const latest = popover.getByRole('list', { name: 'Latest notices' }).getByRole('listitem');
  await expect(latest).toHaveCount(10);
  const newest = popover.getByRole('link', { name: new RegExp(`Unread: Approved certificate ${escape(last)}`) });
  await expect(newest).toBeVisible();
  await expectAccessible(page);
  await shoot(page, 'notices-popover');

  // Opening it marks it read and goes to the certificate.
  await newest.click();
  await expect(page).toHaveURL(new RegExp(`/organizations/${issuer.organizationId}/certificates/${escape(encodeURIComponent(last))}$`));
  await expect(page.getByRole('heading', { level: 1 })).toContainText(last);
  await expect(popover).toBeHidden();
  await expect.poll(async () => (await unreadAbout(issuer, [last])).length).toBe(0);
  await expect.poll(() => unreadShown(page)).toBeLessThan(counted);

  // All notices: a page of twenty, newest first; the one opened is read.
  await bell(page).click();
  await popover.getByRole('link', { name: 'All notices' }).click();
  await expect(page).toHaveURL(/\/notices$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Notices' })).toBeVisible();
  await expect(noticeRows(page)).toHaveCount(PAGE_SIZE);
  await expect(noticeRows(page).filter({ hasText: last })).toContainText('Read');
  const newer = page.getByRole('button', { name: 'Newer notices' });
  const older = page.getByRole('button', { name: 'Older notices' });
  await expect(newer).toBeDisabled();
  await expect(older).toBeEnabled();
  const firstPage = await noticeRows(page).getByRole('rowheader').allTextContents();
  // A hovered row (DataTable's hover grey) keeps its links readable, in both schemes.
  await noticeRows(page).first().getByRole('link').first().hover();
  await expectAccessible(page);
  await shoot(page, 'notices-page');

  // Older: the next notices by cursor, none of the first page again; Newer goes back.
  // The buttons follow the URL at once; the rows are the first page's until the older answer arrives.
  const olderAnswer = answerTo<NoticePage>(page, '/api/notices', { before: /^\d+$/ });
  await older.click();
  await expect(page).toHaveURL(/\/notices\?before=\d+$/);
  await expect(newer).toBeEnabled();
  await expect(noticeRows(page).first().getByRole('rowheader')).toContainText((await olderAnswer).items[0].title);
  const olderPage = await noticeRows(page).getByRole('rowheader').allTextContents();
  expect(olderPage.filter((title) => firstPage.includes(title))).toEqual([]);
  expect(olderPage.some((title) => title.includes(dns[0]))).toBe(true);
  await newer.click();
  await expect(page).toHaveURL(/\/notices$/);
  await expect(noticeRows(page).filter({ hasText: last })).toHaveCount(1);

  // Unread only: the opened one is gone; Mark read takes one more off the list and the count.
  // click, not check: the switch shows the URL, which changes in the router's transition after the click.
  const unreadOnly = page.getByRole('switch', { name: 'Unread only' });
  await unreadOnly.click();
  await expect(page).toHaveURL(/\/notices\?unread=true$/);
  await expect(unreadOnly).toBeChecked();
  await expect(noticeRows(page).filter({ hasText: last })).toHaveCount(0);
  await expect(noticeRows(page).first()).toContainText('Unread');
  const shown = await unreadShown(page);
  const marked = approvedFirst.at(-1)!;
  await noticeRows(page).filter({ hasText: marked }).getByRole('button', { name: /^Mark read/ }).click();
  await expect(noticeRows(page).filter({ hasText: marked })).toHaveCount(0);
  await expect.poll(() => unreadShown(page)).toBeLessThan(shown);
  expect(await unreadAbout(issuer, [marked])).toEqual([]);

  // Mark all read: nothing unread, here and under the bell.
  await page.getByRole('button', { name: 'Mark all read' }).click();
  await expect(page.getByText('No unread notices.')).toBeVisible();
  await expect(bell(page)).toHaveAccessibleName('Notifications, 0 unread');
  await expect(page.getByRole('button', { name: 'Mark all read' })).toBeDisabled();
  expect(await unreadAbout(issuer, dns)).toEqual([]);
  await unreadOnly.click();
  await expect(page).toHaveURL(/\/notices$/);
  await expect(unreadOnly).not.toBeChecked();
  await expect(noticeRows(page).first()).toContainText('Read');
  await expect(noticeRows(page).getByText('Unread', { exact: true })).toHaveCount(0);
});

/** The text as a literal in a RegExp. */
function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
