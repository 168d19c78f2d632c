/**
 * Mails (issue 13 item 3) through a real SMTP server in this process (smtp-server): what arrives
 * has the recipients by role, the subject, plain text and HTML with the link to the object; with
 * the server down the mail waits and is tried again later, and nothing else fails.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import net from 'node:net';
import { SMTPServer } from 'smtp-server';
import { simpleParser } from 'mailparser';
import { testDialects } from '../../../test/support/databases';
import { useTestApp } from '../../../test/support/test-app';
import { factories } from '../../../test/support/factories';
import { dispatchEvents } from './dispatch';
import { sendDueMails, smtpTransport } from './mail';

const dialects = await testDialects();

interface Arrived { from: string; to: string[]; raw: string }

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** An SMTP server on 127.0.0.1 that keeps what it receives. */
function smtpServer(arrived: Arrived[]) {
  return new SMTPServer({
    authOptional: true, disabledCommands: ['STARTTLS'], logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        arrived.push({ from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '', to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString('utf8') });
        callback();
      });
    },
  });
}

describe.each(dialects)('mail on %s', (dialect) => {
  const t = useTestApp(dialect, { demo: false });
  const make = factories(t);
  const arrived: Arrived[] = [];
  let port: number;
  let server: SMTPServer;
  beforeAll(async () => {
    port = await freePort();
    server = smtpServer(arrived);
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const options = () => ({ transport: smtpTransport(`smtp://127.0.0.1:${port}`), from: 'Customer Portal <portal@example.com>' });

  it('mails the approval to the members by role and the extra addresses, with subject, text, HTML and the link, and journals it', async () => {
    // Extra addresses are at a domain the organization trusts (docs/decisions.md "Notifications").
    const org = await make.organization({ role: 'PARTNER', trusted: true });
    const admin = await make.member(org, { role: 'ADMINISTRATOR' });
    const approver = await make.member(org, { role: 'APPROVER' });
    const member = await make.member(org, { role: 'MEMBER' });
    const noc = `noc@${org.domain}`;
    await dispatchEvents(t.db, t.clock.now(), { publicUrl: 'http://portal.example', mail: true });
    const rules = { events: ['certificate.approved'], expiry_days: [30], waiting_days: 3, recipient_roles: ['ADMINISTRATOR'], extra_addresses: [noc], email: true };
    expect((await t.call(admin.email, { method: 'PUT', url: `/api/organizations/${org.id}/notifications`, payload: rules })).statusCode).toBe(200);
    const cert = await make.certificate(org, 'requested');
    expect((await t.call(approver.email, { method: 'POST', url: `/api/approve/${encodeURIComponent(cert.dn)}` })).statusCode).toBe(204);
    await dispatchEvents(t.db, t.clock.now(), { publicUrl: 'http://portal.example', mail: true });

    arrived.length = 0;
    expect(await sendDueMails(t.db, t.clock.now(), options())).toBe(1);
    expect(arrived).toHaveLength(1);
    expect(arrived[0].to.sort()).toEqual([admin.email, noc].sort());
    expect(arrived[0].to).not.toContain(member.email);
    const mail = await simpleParser(arrived[0].raw);
    expect(mail.subject).toBe('[Customer Portal] Certificate approved');
    const link = `http://portal.example/organizations/${org.id}/certificates/${encodeURIComponent(cert.dn)}`;
    expect(mail.text).toContain(link);
    expect(mail.html).toContain(`href="${link.replace(/&/g, '&#38;')}"`);
    // Recipients are in Bcc: nobody sees the others' addresses.
    expect(arrived[0].raw).not.toContain(admin.email);
    expect(await sendDueMails(t.db, t.clock.now(), options())).toBe(0);
    const journal = await t.db.selectFrom('audit_records').select('message').where('organization_id', '=', org.id).where('reason', '=', 'NOTICE_SENT').execute();
    expect(journal.map((r) => r.message).join('\n')).toContain(`Mailed "[Customer Portal] Certificate approved" to 2 recipients.`);
  });

  it('keeps a mail when the SMTP server is down, tries it again later, and fails nothing else', async () => {
    const org = await make.organization({ role: 'PARTNER' });
    const admin = await make.member(org, { role: 'ADMINISTRATOR' });
    const approver = await make.member(org, { role: 'APPROVER' });
    await sendDueMails(t.db, t.clock.now(), options()); // whatever waited before
    const cert = await make.certificate(org, 'requested');
    expect((await t.call(approver.email, { method: 'POST', url: `/api/approve/${encodeURIComponent(cert.dn)}` })).statusCode).toBe(204);
    await dispatchEvents(t.db, t.clock.now(), { publicUrl: 'http://portal.example', mail: true });

    const down = { transport: smtpTransport(`smtp://127.0.0.1:${await freePort()}`), from: 'portal@example.com' };
    expect(await sendDueMails(t.db, t.clock.now(), down)).toBe(0);
    const [kept] = await t.db.selectFrom('mail_outbox').selectAll().where('organization_id', '=', org.id).execute();
    expect(kept).toMatchObject({ attempts: 1, date_sent: null, date_failed: null });
    expect(kept.last_error).toMatch(/ECONNREFUSED/);
    expect(Date.parse(kept.next_attempt_at)).toBeGreaterThan(t.clock.now().getTime());
    // The approval itself stood, and the notice is in the portal.
    expect((await t.db.selectFrom('notices').select('event_type').where('member_id', '=', admin.id).execute()).map((n) => n.event_type)).toContain('certificate.approved');
    // Not due yet: nothing tried; once due, it goes.
    arrived.length = 0;
    expect(await sendDueMails(t.db, t.clock.now(), options())).toBe(0);
    t.clock.set(new Date(Date.parse(kept.next_attempt_at) + 1));
    expect(await sendDueMails(t.db, t.clock.now(), options())).toBe(1);
    // The default rules: administrators, issuers and approvers.
    expect(arrived.map((a) => a.to.sort())).toEqual([[admin.email, approver.email].sort()]);
    expect(await t.db.selectFrom('mail_outbox').select(['attempts', 'date_sent']).where('mail_id', '=', kept.mail_id).executeTakeFirst()).toMatchObject({ attempts: 2, date_sent: expect.any(String) });
  });
});
