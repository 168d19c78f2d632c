/**
 * Events and notices (issue 13 items 1, 2, 4, 7) on both engines, with the injected clock: the
 * time-driven events come once per object and threshold at exactly their instant, across a
 * restart and concurrent scans; the dispatcher tells the members the rules name, once; the rules
 * are the policy's to change and are journaled; each person reads and marks their own notices.
 */
import { describe, expect, it } from 'vitest';
import { testDialects } from '../../../test/support/databases';
import { useTestApp } from '../../../test/support/test-app';
import { factories } from '../../../test/support/factories';
import { scanTime } from './scan';
import { formatUtcDateTime } from '../../../common/dates';
import { dispatchEvents } from './dispatch';
import { listNotices } from './notices';

const dialects = await testDialects();
const DAY = 86_400_000;
const OPTIONS = { publicUrl: 'http://localhost:8080', mail: true };

describe.each(dialects)('notifications on %s', (dialect) => {
  const t = useTestApp(dialect, { demo: false });
  const make = factories(t);

  /** An organization with an administrator, an issuer, an approver and a plain member. */
  async function team(trusted = false) {
    const org = await make.organization({ role: 'PARTNER', trusted });
    return {
      org,
      admin: await make.member(org, { role: 'ADMINISTRATOR' }),
      issuer: await make.member(org, { role: 'ISSUER' }),
      approver: await make.member(org, { role: 'APPROVER' }),
      member: await make.member(org, { role: 'MEMBER' }),
    };
  }
  const eventsOf = (type: string, subjectId: string) =>
    t.db.selectFrom('events').selectAll().where('event_type', '=', type).where('subject_id', '=', subjectId).orderBy('event_id').execute();
  /** A person's bell, oldest first. */
  const noticesOf = async (memberId: string) => (await listNotices(t.db, memberId, { limit: 100 })).items.reverse();
  /** The scan's interval starts at the clock's instant (a clock set back starts it again). */
  const startScanning = () => scanTime(t.db, t.clock.now());

  it('makes the 30-day event when an approved certificate crosses 30 days: not 1 ms before, once at it, never again after a restart', async () => {
    const { org, approver, admin } = await team();
    await startScanning();
    const cert = await make.certificate(org, 'requested', { from: -1, to: 31 });
    const approve = await t.call(approver.email, { method: 'POST', url: `/api/approve/${encodeURIComponent(cert.dn)}` });
    expect(approve.statusCode).toBe(204);
    const end = Date.parse((await t.db.selectFrom('certificates').select('date_not_after').where('distinguished_name', '=', cert.dn).executeTakeFirstOrThrow()).date_not_after);
    const crossing = end - 30 * DAY;

    await scanTime(t.db, new Date(crossing - 1));
    expect(await eventsOf('certificate.expiring', cert.dn)).toHaveLength(0);
    await scanTime(t.db, new Date(crossing));
    const [event] = await eventsOf('certificate.expiring', cert.dn);
    expect(event.organization_id).toBe(org.id);
    expect(JSON.parse(event.data)).toMatchObject({ version: 1, days: 30, subject: { type: 'certificate', id: cert.dn }, organization_id: org.id });
    await scanTime(t.db, new Date(crossing + 60_000));
    await t.restart();
    await scanTime(t.db, new Date(crossing + 120_000));
    expect(await eventsOf('certificate.expiring', cert.dn)).toHaveLength(1);

    // The approval and the 30-day event each reach the administrator's bell once, with a link to the certificate.
    await dispatchEvents(t.db, new Date(crossing + 120_000), OPTIONS);
    await dispatchEvents(t.db, new Date(crossing + 180_000), OPTIONS);
    const notices = await noticesOf(admin.id);
    expect(notices.map((n) => n.event_type)).toEqual(['certificate.approved', 'certificate.expiring']);
    // Its end in SPEC.md §9's date-time, zone-explicit (the same text goes into mails and webhooks), never raw ISO.
    expect(notices[1].title).toBe(`Certificate ${cert.dn} expires in 30 days, on ${formatUtcDateTime(end)}.`);
    expect(notices[1].title).toMatch(/, on \d{2}-[A-Z]{3}-\d{4} \d{2}:\d{2}:\d{2} UTC\.$/);
    expect(notices[1].link).toBe(`/organizations/${org.id}/certificates/${encodeURIComponent(cert.dn)}`);
  });

  it('makes one event and one notice each, not two, when two instances scan and dispatch at once', async () => {
    const { org, admin, issuer, approver, member } = await team();
    await startScanning();
    const cert = await make.certificate(org, 'approved', { from: -10, to: 14.5 });
    // Two scans at once, each in its own transaction (two connections on PostgreSQL): they take turns and the marks hold.
    const at = new Date(t.clock.now().getTime() + DAY);
    await Promise.all([scanTime(t.db, at), scanTime(t.db, at), scanTime(t.db, new Date(at.getTime() + 1))]);
    const events = await eventsOf('certificate.expiring', cert.dn);
    expect(events.map((e) => JSON.parse(e.data).days)).toEqual([14]);
    // Two dispatchers at once fan each event out once: one notice per person, not two, in one row for them all.
    await Promise.all([dispatchEvents(t.db, at, OPTIONS, 1), dispatchEvents(t.db, at, OPTIONS, 1)]);
    for (const person of [admin, issuer, approver]) {
      expect((await noticesOf(person.id)).filter((n) => n.event_type === 'certificate.expiring')).toHaveLength(1);
    }
    expect(await noticesOf(member.id)).toEqual([]);
    expect(await t.db.selectFrom('notices').select('member_id').where('event_id', '=', events[0].event_id).execute()).toEqual([{ member_id: null }]);
  });

  it('makes the expired and the approval-waiting events, and none for a renewed license', async () => {
    const { org } = await team();
    await startScanning();
    const expiring = await make.license(org, 'approved', { from: -10, days: 12 });
    const renewed = await make.license(org, 'extended');
    const waiting = await make.certificate(org, 'requested', { from: 1, to: 300 });
    // The default rules: an approval that has waited 3 days.
    const created = Date.parse((await t.db.selectFrom('certificates').select('date_created').where('distinguished_name', '=', waiting.dn).executeTakeFirstOrThrow()).date_created);
    await scanTime(t.db, new Date(created + 3 * DAY - 1));
    expect(await eventsOf('certificate.approval_waiting', waiting.dn)).toHaveLength(0);
    t.clock.set(new Date(created + 3 * DAY));
    await scanTime(t.db, t.clock.now());
    expect(await eventsOf('certificate.approval_waiting', waiting.dn)).toHaveLength(1);
    t.clock.advanceDays(40);
    await scanTime(t.db, t.clock.now());
    expect(await eventsOf('license.expired', expiring.id)).toHaveLength(1);
    expect(await eventsOf('license.expired', renewed.id)).toHaveLength(0);
    // A clock set back and forward again tells nothing twice.
    t.clock.advanceDays(-30);
    await scanTime(t.db, t.clock.now());
    t.clock.advanceDays(30);
    await scanTime(t.db, t.clock.now());
    expect(await eventsOf('license.expired', expiring.id)).toHaveLength(1);
    expect(await eventsOf('certificate.approval_waiting', waiting.dn)).toHaveLength(1);
  });

  it('tells the members whose roles the rules name, mails them and the extra addresses once, and journals it', async () => {
    const { org, admin, issuer, approver, member } = await team(true);
    const rules = { events: ['certificate.approved'], expiry_days: [30], waiting_days: 3, recipient_roles: ['ISSUER'], extra_addresses: [`Ops@${org.domain.toUpperCase()}`], email: true };
    const saved = await t.call(admin.email, { method: 'PUT', url: `/api/organizations/${org.id}/notifications`, payload: rules });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({ ...rules, extra_addresses: [`ops@${org.domain}`], is_default: false });
    await dispatchEvents(t.db, t.clock.now(), OPTIONS); // whatever waited before

    const cert = await make.certificate(org, 'requested');
    expect((await t.call(approver.email, { method: 'POST', url: `/api/approve/${encodeURIComponent(cert.dn)}` })).statusCode).toBe(204);
    // Revoked is not among the events chosen: it makes an event (webhooks may want it) but no notice.
    expect((await t.call(approver.email, { method: 'POST', url: `/api/organizations/${org.id}/certificates/${encodeURIComponent(cert.dn)}/revoke` })).statusCode).toBe(204);
    expect(await dispatchEvents(t.db, t.clock.now(), OPTIONS)).toBe(2);
    expect(await dispatchEvents(t.db, t.clock.now(), OPTIONS)).toBe(0);

    expect((await noticesOf(issuer.id)).map((n) => n.event_type)).toEqual(['certificate.approved']);
    for (const other of [admin, approver, member]) expect(await noticesOf(other.id)).toEqual([]);
    // A mail per recipient (mail.ts): the issuer by role and the extra address.
    const mails = await t.db.selectFrom('mail_outbox').selectAll().where('organization_id', '=', org.id).orderBy('mail_id').execute();
    expect(mails.map((m) => JSON.parse(m.recipients))).toEqual([[issuer.email], [`ops@${org.domain}`]]);
    expect(mails[0].text_body).toContain(`http://localhost:8080/organizations/${org.id}/certificates/${encodeURIComponent(cert.dn)}`);
    const journal = await t.db.selectFrom('audit_records').select(['reason', 'message']).where('organization_id', '=', org.id).orderBy('record_id').execute();
    expect(journal.map((r) => r.reason)).toEqual(['NOTIFICATION_SETTINGS_SAVED', 'CERTIFICATE_APPROVED', 'CERTIFICATE_REVOKED', 'NOTICE_SENT']);
    expect(journal[3].message).toContain(issuer.email);
  });

  it('mails extra addresses only at domains the organization trusts (issue 30, defect 8)', async () => {
    const { org, admin, issuer, approver } = await team(true);
    const url = `/api/organizations/${org.id}/notifications`;
    const rules = { events: ['certificate.approved'], expiry_days: [30], waiting_days: 3, recipient_roles: ['ISSUER'], email: true };
    for (const outside of ['victim@outside.example', `someone@sub.${org.domain}`]) {
      const refused = await t.call(admin.email, { method: 'PUT', url, payload: { ...rules, extra_addresses: [`ops@${org.domain}`, outside] } });
      expect(refused.statusCode, outside).toBe(400);
      expect(refused.json()).toMatchObject({ field: 'extra_addresses' });
      expect(refused.json().message).toContain(`${outside} is not at a domain this organization trusts (${org.domain})`);
    }
    expect(await t.db.selectFrom('notification_settings').selectAll().where('organization_id', '=', org.id).execute()).toEqual([]);
    // Rules that name an outside address from before (or a domain given up since) mail only the rest.
    await t.db.insertInto('notification_settings').values({
      organization_id: org.id, date_updated: t.clock.now().toISOString(), settings: JSON.stringify({ ...rules, extra_addresses: [`ops@${org.domain}`, 'victim@outside.example'] }),
    }).execute();
    await dispatchEvents(t.db, t.clock.now(), OPTIONS);
    const cert = await make.certificate(org, 'requested');
    expect((await t.call(approver.email, { method: 'POST', url: `/api/approve/${encodeURIComponent(cert.dn)}` })).statusCode).toBe(204);
    await dispatchEvents(t.db, t.clock.now(), OPTIONS);
    const mails = await t.db.selectFrom('mail_outbox').selectAll().where('organization_id', '=', org.id).orderBy('mail_id').execute();
    expect(mails.map((m) => JSON.parse(m.recipients))).toEqual([[issuer.email], [`ops@${org.domain}`]]);
  });

  it('lets administrators change the rules, refuses others and bad input, and changes nothing then', async () => {
    const { org, admin, issuer } = await team();
    const other = await team();
    const url = `/api/organizations/${org.id}/notifications`;
    const defaults = await t.call(admin.email, { method: 'GET', url });
    expect(defaults.json()).toMatchObject({ is_default: true, expiry_days: [30, 14, 7, 1], email_configured: false });
    expect((await t.call(issuer.email, { method: 'GET', url })).statusCode).toBe(403);
    expect((await t.call(other.admin.email, { method: 'GET', url })).statusCode).toBe(404);
    const body = { ...defaults.json(), expiry_days: [], extra_addresses: ['not an address'] };
    delete body.is_default; delete body.date_updated; delete body.email_configured;
    const refused = await t.call(admin.email, { method: 'PUT', url, payload: body });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toMatch(/expiry_days/);
    expect((await t.call(issuer.email, { method: 'PUT', url, payload: { ...body, expiry_days: [5], extra_addresses: [] } })).statusCode).toBe(403);
    expect(await t.db.selectFrom('notification_settings').selectAll().where('organization_id', '=', org.id).execute()).toEqual([]);
    const saved = await t.call(admin.email, { method: 'PUT', url, payload: { ...body, expiry_days: [7, 60, 7 + 1], extra_addresses: [] } });
    expect(saved.json()).toMatchObject({ expiry_days: [60, 8, 7], is_default: false });
  });

  it("shows an organization's notice to those holding a role it names when it was made: not to later members or roles, nor after a role's end", async () => {
    const { org, admin, issuer, approver, member } = await team();
    const approve = async () => {
      const cert = await make.certificate(org, 'requested');
      expect((await t.call(approver.email, { method: 'POST', url: `/api/approve/${encodeURIComponent(cert.dn)}` })).statusCode).toBe(204);
      await dispatchEvents(t.db, t.clock.now(), OPTIONS);
    };
    const assign = (person: { id: string }, until = '') => t.call(admin.email, {
      method: 'POST', url: `/api/organizations/${org.id}/members/${person.id}/roles/assign?role=ISSUER&scope=ORGANIZATION${until && `&until=${until}`}`,
    });
    const approvals = async (person: { id: string }) => (await noticesOf(person.id)).filter((n) => n.event_type === 'certificate.approved').length;
    const temporary = await make.member(org, { role: 'MEMBER' });
    expect((await assign(temporary, new Date(t.clock.now().getTime() + 2 * DAY).toISOString())).statusCode).toBe(200);
    await approve();
    expect([await approvals(admin), await approvals(issuer), await approvals(approver), await approvals(temporary), await approvals(member)]).toEqual([1, 1, 1, 1, 0]);

    // Three days later the temporary issuer's role has ended; a new issuer joins and the plain member becomes one.
    t.clock.advanceDays(3);
    const newcomer = await make.member(org, { role: 'ISSUER' });
    expect((await assign(member)).statusCode).toBe(200);
    expect([await approvals(newcomer), await approvals(member)]).toEqual([0, 0]);
    await approve();
    expect([await approvals(admin), await approvals(newcomer), await approvals(member), await approvals(temporary)]).toEqual([2, 1, 1, 1]);
    expect((await t.call(newcomer.email, { method: 'GET', url: '/api/notices' })).json().unread).toBe(1);
  });

  it('marks all read up to a notice of a minute ago and the newer ones each, so notices made after stay unread', async () => {
    const { org, admin, approver } = await team();
    const approve = async () => {
      const cert = await make.certificate(org, 'requested');
      await t.call(approver.email, { method: 'POST', url: `/api/approve/${encodeURIComponent(cert.dn)}` });
      await dispatchEvents(t.db, t.clock.now(), OPTIONS);
    };
    const bell = async () => (await t.call(admin.email, { method: 'GET', url: '/api/notices' })).json();
    await approve();
    t.clock.advanceDays(1);
    await approve();
    const read = (await t.call(admin.email, { method: 'POST', url: '/api/notices/read', payload: {} })).json();
    expect(read).toEqual({ unread: 0 });
    // The older one by the read-through, the one of this minute by a mark of its own.
    expect(await t.db.selectFrom('notice_read_through').select('notice_id').where('member_id', '=', admin.id).execute()).toHaveLength(1);
    expect(await t.db.selectFrom('notice_reads').select('notice_id').where('member_id', '=', admin.id).execute()).toHaveLength(1);
    await approve();
    expect((await bell()).unread).toBe(1);
    t.clock.advanceDays(1);
    await approve();
    expect((await t.call(admin.email, { method: 'POST', url: '/api/notices/read', payload: {} })).json()).toEqual({ unread: 0 });
    // A later read-through takes the place of the marks below it.
    expect(await t.db.selectFrom('notice_reads').select('notice_id').where('member_id', '=', admin.id).execute()).toHaveLength(1);
    const items: Array<{ date_read: string | null }> = (await bell()).items;
    expect(items).toHaveLength(4);
    expect(items.every((n) => n.date_read)).toBe(true);
  });

  it("shows each person their own notices, newest first, and marks only their own read", async () => {
    const { org, admin, issuer, approver } = await team();
    for (let i = 0; i < 3; i++) {
      const cert = await make.certificate(org, 'requested');
      await t.call(approver.email, { method: 'POST', url: `/api/approve/${encodeURIComponent(cert.dn)}` });
    }
    await dispatchEvents(t.db, t.clock.now(), OPTIONS);
    const page = await t.call(admin.email, { method: 'GET', url: '/api/notices?limit=2' });
    expect(page.json()).toMatchObject({ unread: 3 });
    const [newest, older] = page.json().items;
    expect(newest.notice_id).toBeGreaterThan(older.notice_id);
    const rest = await t.call(admin.email, { method: 'GET', url: `/api/notices?limit=2&before=${page.json().next_before}` });
    expect(rest.json().items).toHaveLength(1);
    expect(rest.json().next_before).toBeNull();

    // Another organization's notice ids change nothing, of theirs or of the caller's.
    const other = await team();
    const theirs = await make.certificate(other.org, 'requested');
    await t.call(other.approver.email, { method: 'POST', url: `/api/approve/${encodeURIComponent(theirs.dn)}` });
    await dispatchEvents(t.db, t.clock.now(), OPTIONS);
    const [theirNotice] = (await t.call(other.admin.email, { method: 'GET', url: '/api/notices' })).json().items;
    expect((await t.call(admin.email, { method: 'POST', url: '/api/notices/read', payload: { notice_ids: [theirNotice.notice_id] } })).json()).toEqual({ unread: 3 });
    expect((await t.call(other.admin.email, { method: 'GET', url: '/api/notices' })).json().unread).toBe(1);
    // The issuer sees the same notices; a read mark is the reader's own.
    expect((await t.call(admin.email, { method: 'POST', url: '/api/notices/read', payload: { notice_ids: [newest.notice_id] } })).json()).toEqual({ unread: 2 });
    expect((await t.call(admin.email, { method: 'GET', url: '/api/notices?unread=true' })).json().items.map((n: { notice_id: number }) => n.notice_id))
      .not.toContain(newest.notice_id);
    const issuerPage = (await t.call(issuer.email, { method: 'GET', url: '/api/notices' })).json();
    expect(issuerPage.unread).toBe(3);
    expect(issuerPage.items.find((n: { notice_id: number }) => n.notice_id === newest.notice_id).date_read).toBeNull();
    expect((await t.call(admin.email, { method: 'GET', url: '/api/notices' })).json().items[0]).toMatchObject({ notice_id: newest.notice_id, date_read: t.clock.now().toISOString() });
    expect((await t.call(admin.email, { method: 'POST', url: '/api/notices/read', payload: {} })).json()).toEqual({ unread: 0 });
    expect((await t.call(issuer.email, { method: 'GET', url: '/api/notices' })).json().unread).toBe(3);
    expect((await t.call(null, { method: 'GET', url: '/api/notices' })).statusCode).toBe(401);
  });
});
