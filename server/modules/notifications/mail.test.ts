/**
 * Mails (issue 13 item 3) through a real SMTP server in this process (smtp-server): what arrives
 * goes to the recipients by role, each their own mail with them in `To:` and nobody else's address
 * (issue 31 item 5), marked `Auto-Submitted: auto-generated`, with the subject, plain text and HTML
 * with the link to the object; with the server down the mail waits and is tried again later, and
 * nothing else fails; an address the server refuses is tried again alone.
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
import { listNotices } from './notices';

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

/** An SMTP server on 127.0.0.1 that keeps what it receives, and refuses the addresses in `refused`. */
function smtpServer(arrived: Arrived[], refused: Set<string>) {
  return new SMTPServer({
    authOptional: true, disabledCommands: ['STARTTLS'], logger: false,
    onRcptTo(address, _session, callback) {
      callback(refused.has(address.address) ? Object.assign(new Error('mailbox unavailable'), { responseCode: 550 }) : undefined);
    },
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
  const refused = new Set<string>();
  let port: number;
  let server: SMTPServer;
  beforeAll(async () => {
    port = await freePort();
    server = smtpServer(arrived, refused);
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
    expect(await sendDueMails(t.db, t.clock.now(), options())).toBe(2);
    // A mail each, to that recipient alone: in the envelope and in To:, and nobody else's address anywhere.
    expect(arrived.map((a) => a.to).sort()).toEqual([[admin.email], [noc]].sort());
    for (const { to: [recipient], raw } of arrived) {
      const mail = await simpleParser(raw);
      expect(mail.to && !Array.isArray(mail.to) ? mail.to.value.map((v) => v.address) : mail.to).toEqual([recipient]);
      expect(mail.bcc).toBeUndefined();
      expect(mail.cc).toBeUndefined();
      for (const other of [admin.email, noc, approver.email, member.email].filter((a) => a !== recipient)) expect(raw).not.toContain(other);
      // Sent by a machine: no out-of-office reply comes back (RFC 3834; Exchange's own header too).
      expect(mail.headers.get('auto-submitted')).toBe('auto-generated');
      expect(mail.headers.get('x-auto-response-suppress')).toBe('All');
      expect(mail.subject).toBe('[Customer Portal] Certificate approved');
      const link = `http://portal.example/organizations/${org.id}/certificates/${encodeURIComponent(cert.dn)}`;
      expect(mail.text).toContain(link);
      expect(mail.html).toContain(`href="${link.replace(/&/g, '&#38;')}"`);
    }
    expect(await sendDueMails(t.db, t.clock.now(), options())).toBe(0);
    const journal = await t.db.selectFrom('audit_records').select('message').where('organization_id', '=', org.id).where('reason', '=', 'NOTICE_SENT').execute();
    // Once for the event, as when one mail had them all.
    expect(journal.map((r) => r.message).filter((m) => m.startsWith('Mailed'))).toEqual([`Mailed "[Customer Portal] Certificate approved" to 2 recipients.`]);
  });

  it('tries an address the server refuses again on its own, without mailing the others twice', async () => {
    const org = await make.organization({ role: 'PARTNER' });
    const admin = await make.member(org, { role: 'ADMINISTRATOR' });
    const issuer = await make.member(org, { role: 'ISSUER' });
    const approver = await make.member(org, { role: 'APPROVER' });
    await sendDueMails(t.db, t.clock.now(), options()); // whatever waited before
    const cert = await make.certificate(org, 'requested');
    expect((await t.call(approver.email, { method: 'POST', url: `/api/approve/${encodeURIComponent(cert.dn)}` })).statusCode).toBe(204);
    await dispatchEvents(t.db, t.clock.now(), { publicUrl: 'http://portal.example', mail: true });

    refused.add(issuer.email);
    try {
      arrived.length = 0;
      expect(await sendDueMails(t.db, t.clock.now(), options())).toBe(2);
      expect(arrived.map((a) => a.to[0]).sort()).toEqual([admin.email, approver.email].sort());
      const [kept] = await t.db.selectFrom('mail_outbox').selectAll().where('organization_id', '=', org.id).where('date_sent', 'is', null).execute();
      expect(JSON.parse(kept.recipients)).toEqual([issuer.email]);
      expect(kept.last_error).toMatch(/mailbox unavailable/);
      refused.clear();
      t.clock.set(new Date(Date.parse(kept.next_attempt_at) + 1));
      arrived.length = 0;
      expect(await sendDueMails(t.db, t.clock.now(), options())).toBe(1);
      expect(arrived.map((a) => a.to)).toEqual([[issuer.email]]);
      const journal = await t.db.selectFrom('audit_records').select('message').where('organization_id', '=', org.id).where('reason', '=', 'NOTICE_SENT').orderBy('record_id').execute();
      expect(journal.map((r) => r.message).filter((m) => m.startsWith('Mailed'))).toEqual([
        `Mailed "[Customer Portal] Certificate approved" to 2 recipients.`,
        `Mailed "[Customer Portal] Certificate approved" to ${issuer.email}.`,
      ]);
    } finally {
      refused.clear();
    }
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
    const kept = await t.db.selectFrom('mail_outbox').selectAll().where('organization_id', '=', org.id).execute();
    expect(kept).toHaveLength(2);
    for (const mail of kept) {
      expect(mail).toMatchObject({ attempts: 1, date_sent: null, date_failed: null });
      expect(mail.last_error).toMatch(/ECONNREFUSED/);
      expect(Date.parse(mail.next_attempt_at)).toBeGreaterThan(t.clock.now().getTime());
    }
    // The approval itself stood, and the notice is in the portal.
    expect((await listNotices(t.db, admin.id, { limit: 10 })).items.map((n) => n.event_type)).toContain('certificate.approved');
    // Not due yet: nothing tried; once due, it goes.
    arrived.length = 0;
    expect(await sendDueMails(t.db, t.clock.now(), options())).toBe(0);
    t.clock.set(new Date(Math.max(...kept.map((m) => Date.parse(m.next_attempt_at))) + 1));
    expect(await sendDueMails(t.db, t.clock.now(), options())).toBe(2);
    // The default rules: administrators, issuers and approvers.
    expect(arrived.map((a) => a.to).sort()).toEqual([[admin.email], [approver.email]].sort());
    for (const mail of kept) {
      expect(await t.db.selectFrom('mail_outbox').select(['attempts', 'date_sent']).where('mail_id', '=', mail.mail_id).executeTakeFirst()).toMatchObject({ attempts: 2, date_sent: expect.any(String) });
    }
  });
});
