/**
 * Approval work reaches approvers (issue 34 item 1), on the demo data and both engines: a customer's
 * upload or license request, and the "waited 3 days" reminder, reach the bell of the operator's
 * APPROVER and SUPERVISOR (not its ADMINISTRATOR or DEVOPS, who cannot approve), the customer's
 * journal counts them, and their mail follows the operator's rules (the reminders by default).
 */
import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { testDialects } from '../../../test/support/databases';
import { useTestApp } from '../../../test/support/test-app';
import { makeCertificate } from '../../../scripts/make-certificate';
import { scanTime } from './scan';
import { dispatchEvents } from './dispatch';

const dialects = await testDialects();
const DAY = 86_400_000;
const OPTIONS = { publicUrl: 'http://localhost:8080', mail: true };
const APPROVER = 'approver@operator.example';
const SUPERVISOR = 'supervisor@operator.example';
const STAFF = [APPROVER, SUPERVISOR, 'admin@operator.example', 'devops@operator.example'];
const ISSUER = 'issuer@contoso.example';

let serial = 0;

describe.each(dialects)('approval work on %s', (dialect) => {
  // Webhook endpoints on 127.0.0.1 may be registered (none is called: the deliveries are only queued here).
  const t = useTestApp(dialect, { env: { WEBHOOK_ALLOW_PRIVATE: 'true' } });

  /** The notices of these people about one object, by address. */
  async function noticesAbout(subjectId: string, type: string) {
    const rows = await t.db.selectFrom('notices')
      .innerJoin('events', 'events.event_id', 'notices.event_id')
      .innerJoin('members', 'members.member_id', 'notices.member_id')
      .select(['members.member_email', 'notices.title', 'notices.link', 'notices.organization_id'])
      .where('events.subject_id', '=', subjectId).where('notices.event_type', '=', type)
      .where('members.member_email', 'in', STAFF)
      .orderBy('members.member_email').execute();
    return rows;
  }

  async function upload() {
    const now = t.clock.now().getTime();
    const { pem } = await makeCertificate({ subject: `CN=approvers-${dialect}-${++serial}.contoso.example`, notBefore: new Date(now - DAY), notAfter: new Date(now + 300 * DAY) });
    const response = await t.call(ISSUER, { method: 'POST', url: `/api/organizations/${t.org.contoso}/certificates`, payload: { description: '', certificate: pem } });
    expect(response.statusCode).toBe(201);
    return response.json().distinguished_name as string;
  }

  it("puts a customer's upload on the bell of the operator's approver and supervisor, not of its administrator or devops", async () => {
    const before = (await t.call(APPROVER, { method: 'GET', url: '/api/notices?unread=true' })).json().unread as number;
    const dn = await upload();
    await dispatchEvents(t.db, t.clock.now(), OPTIONS);

    const notices = await noticesAbout(dn, 'certificate.uploaded');
    expect(notices.map((n) => n.member_email)).toEqual([APPROVER, SUPERVISOR]);
    expect(notices[0]).toMatchObject({ organization_id: t.org.contoso, link: `/organizations/${t.org.contoso}/certificates/${encodeURIComponent(dn)}` });
    // What the approver reads under the bell.
    const page = (await t.call(APPROVER, { method: 'GET', url: '/api/notices?unread=true' })).json();
    expect(page.unread).toBe(before + 1);
    expect(page.items[0].title).toBe(`Uploaded certificate ${dn}.`);
    // The customer's journal counts them, naming no operator address.
    const journal = await t.db.selectFrom('audit_records').select('message').where('organization_id', '=', t.org.contoso).where('reason', '=', 'NOTICE_SENT').execute();
    expect(journal.map((r) => r.message)).toContain(`Notified 2 approvers of the operator in the portal: Uploaded certificate ${dn}.`);
    // The operator's default rules mail the reminders, not every upload.
    const mails = await t.db.selectFrom('mail_outbox').innerJoin('events', 'events.event_id', 'mail_outbox.event_id').select('recipients').where('events.subject_id', '=', dn).execute();
    expect(mails).toEqual([]);
  });

  it("puts a customer's license request on the approver's and supervisor's bell", async () => {
    const name = `Approvers ${dialect} ${++serial}`;
    const response = await t.call(ISSUER, { method: 'POST', url: `/api/organizations/${t.org.contoso}/licenses`, payload: { license_name: name, license_scope: 'LAB' } });
    expect(response.statusCode).toBe(201);
    await dispatchEvents(t.db, t.clock.now(), OPTIONS);
    const notices = await noticesAbout(response.json().license_id, 'license.requested');
    expect(notices.map((n) => n.member_email)).toEqual([APPROVER, SUPERVISOR]);
  });

  it('tells them, and mails them by the operator\'s rules, when the upload has waited 3 days', async () => {
    await scanTime(t.db, t.clock.now());
    const dn = await upload();
    const due = t.clock.now().getTime() + 3 * DAY;
    await scanTime(t.db, new Date(due - 1));
    await dispatchEvents(t.db, new Date(due - 1), OPTIONS);
    expect(await noticesAbout(dn, 'certificate.approval_waiting')).toEqual([]);

    await scanTime(t.db, new Date(due));
    await dispatchEvents(t.db, new Date(due), OPTIONS);
    const notices = await noticesAbout(dn, 'certificate.approval_waiting');
    expect(notices.map((n) => n.member_email)).toEqual([APPROVER, SUPERVISOR]);
    expect(notices[0].title).toBe(`Certificate ${dn} has waited 3 days for approval.`);
    // A mail to each (mail.ts), journaled in the operator's journal when sent; the customer's own mails apart.
    const mails = await t.db.selectFrom('mail_outbox').innerJoin('events', 'events.event_id', 'mail_outbox.event_id')
      .select(['mail_outbox.organization_id', 'recipients']).where('events.subject_id', '=', dn).where('events.event_type', '=', 'certificate.approval_waiting').execute();
    const toStaff = mails.filter((m) => m.organization_id === t.org.operator);
    expect(toStaff.map((m) => JSON.parse(m.recipients) as string[]).sort()).toEqual([[APPROVER], [SUPERVISOR]]);
    expect(mails.filter((m) => m.organization_id === t.org.contoso).flatMap((m) => JSON.parse(m.recipients) as string[])).not.toContain(APPROVER);
  });

  // With mail the members the rules name are read one by one; without, counted (dispatch.ts): told once either way.
  it.each([true, false])("tells the operator's approver once about its own organization's waiting upload, which its rules name it for too (mail %s)", async (mail) => {
    const now = t.clock.now().getTime();
    const { pem } = await makeCertificate({ subject: `CN=own-${dialect}-${++serial}.operator.example`, notBefore: new Date(now - DAY), notAfter: new Date(now + 300 * DAY) });
    const uploaded = await t.call(APPROVER, { method: 'POST', url: `/api/organizations/${t.org.operator}/certificates`, payload: { description: '', certificate: pem } });
    expect(uploaded.statusCode).toBe(201);
    const dn = uploaded.json().distinguished_name as string;
    const due = new Date(now + 3 * DAY);
    await scanTime(t.db, new Date(due.getTime() - 1)); // the scan's interval then ends at the upload's due instant
    await scanTime(t.db, due);
    await dispatchEvents(t.db, due, { ...OPTIONS, mail });
    // The operator's rules name its administrator and approver (one notice of the organization); the supervisor,
    // whom they do not name, is told as an approver (a notice of its own). The approver's bell shows it once.
    const own = await noticesAbout(dn, 'certificate.approval_waiting');
    expect(own.map((n) => n.member_email)).toEqual([SUPERVISOR]);
    const bell = (await t.call(APPROVER, { method: 'GET', url: '/api/notices?limit=50' })).json().items as Array<{ title: string }>;
    expect(bell.filter((n) => n.title === `Certificate ${dn} has waited 3 days for approval.`)).toHaveLength(1);
    const journal = await t.db.selectFrom('audit_records').select('message').where('organization_id', '=', t.org.operator).where('reason', '=', 'NOTICE_SENT').execute();
    expect(journal.map((r) => r.message)).toContain(`Notified 2 members and 1 approver of the operator in the portal: Certificate ${dn} has waited 3 days for approval.`);
  });

  it("queues approval work of every organization for the operator's webhook endpoints that subscribe to it, and nothing else", async () => {
    const events = ['certificate.uploaded', 'certificate.approved'];
    const created = await t.call(SUPERVISOR, { method: 'POST', url: `/api/organizations/${t.org.operator}/webhooks`, payload: { url: `http://127.0.0.1:9/approvals-${dialect}`, events, description: 'approvals' } });
    expect(created.statusCode).toBe(201);
    const endpointId = created.json().endpoint.endpoint_id as string;
    const dn = await upload();
    expect((await t.call(APPROVER, { method: 'POST', url: `/api/approve/${encodeURIComponent(dn)}` })).statusCode).toBe(204);
    await dispatchEvents(t.db, t.clock.now(), OPTIONS);
    const deliveries = await t.db.selectFrom('webhook_deliveries').select(['event_type', 'subject_key']).where('endpoint_id', '=', endpointId).execute();
    // The upload waits for the operator; the approval is the customer's business (its own endpoints).
    expect(deliveries).toEqual([{ event_type: 'certificate.uploaded', subject_key: `certificate:${dn}` }]);
  });

  // PostgreSQL plans by its statistics (a handful of organizations here: a scan); SQLite, which has none, by the indexes.
  it.runIf(dialect === 'sqlite')('finds the operator and an organization\'s holders of a role by indexes, not by reading them all', async () => {
    const plan = async (query: ReturnType<typeof sql>) => (await sql<{ detail: string }>`explain query plan ${query}`.execute(t.db)).rows.map((r) => r.detail);
    expect(await plan(sql`select organization_id from organizations where organization_role = ${'OPERATOR'}`))
      .toEqual([expect.stringMatching(/^SEARCH organizations USING INDEX organizations_role /)]);
    expect(await plan(sql`select member_id from role_assignments where organization_id = ${'o'} and role in (${'APPROVER'}, ${'SUPERVISOR'})`))
      .toEqual([expect.stringMatching(/^SEARCH role_assignments USING COVERING INDEX role_assignments_role \(organization_id=\? AND role=\?\)/)]);
  });

  it('leaves out a banned approver', async () => {
    const approver = await t.db.selectFrom('members').select('member_id').where('member_email', '=', APPROVER).executeTakeFirstOrThrow();
    const ban = (date: string | null) => t.db.updateTable('members').set({ date_member_banned: date, ban_note: date && 'Left.' }).where('member_id', '=', approver.member_id).execute();
    await ban(t.clock.now().toISOString());
    try {
      const dn = await upload();
      await dispatchEvents(t.db, t.clock.now(), OPTIONS);
      expect((await noticesAbout(dn, 'certificate.uploaded')).map((n) => n.member_email)).toEqual([SUPERVISOR]);
    } finally {
      await ban(null); // the other tests (in shuffled order) share the demo data
    }
  });
});
