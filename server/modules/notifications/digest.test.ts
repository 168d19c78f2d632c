/**
 * The approvers' daily digest (issue 34 item 1), on the demo data and both engines with the injected clock: the
 * preference is the person's own (approvers and supervisors only, journaled, a real zone); who chose the digest gets
 * no mail per request but keeps the bell; the digest comes once a local day from 07:00 in their zone, counting
 * what waits on Pending Tasks and naming the oldest, never twice (two runs at once included), never when nothing waits.
 */
import { describe, expect, it } from 'vitest';
import { testDialects } from '../../../test/support/databases';
import { useTestApp } from '../../../test/support/test-app';
import { makeCertificate } from '../../../scripts/make-certificate';
import { scanTime } from './scan';
import { dispatchEvents } from './dispatch';
import { sendDigests } from './digest';
import { NO_EVENT } from './mail';

const dialects = await testDialects();
const DAY = 86_400_000;
const OPTIONS = { publicUrl: 'http://localhost:8080', mail: true };
const APPROVER = 'approver@operator.example';
const SUPERVISOR = 'supervisor@operator.example';
const ISSUER = 'issuer@contoso.example';

let serial = 0;

describe.each(dialects)('the approvers\' daily digest on %s', (dialect) => {
  const t = useTestApp(dialect);

  const choose = (who: string, approval_mail: string, time_zone = 'UTC') =>
    t.call(who, { method: 'PUT', url: '/api/notices/preferences', payload: { approval_mail, time_zone } });

  /** The digests queued for this person, oldest first. */
  async function digestsOf(email: string) {
    const rows = await t.db.selectFrom('mail_outbox').select(['recipients', 'subject', 'text_body', 'html_body'])
      .where('event_id', '=', NO_EVENT).orderBy('mail_id').execute();
    return rows.filter((r) => (JSON.parse(r.recipients) as string[]).includes(email));
  }

  it('is the chooser\'s own: read and saved by approvers and supervisors, journaled, refused to others and for a zone that is none', async () => {
    // Every test puts back a mail per request; the first to run found the default.
    expect((await t.call(APPROVER, { method: 'GET', url: '/api/notices/preferences' })).json()).toMatchObject({ approval_mail: 'each' });

    const saved = await choose(APPROVER, 'digest', 'europe/berlin');
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({ approval_mail: 'digest', time_zone: 'Europe/Berlin', is_default: false });
    const journal = await t.db.selectFrom('audit_records').select(['message', 'organization_id']).where('reason', '=', 'MAIL_PREFERENCES_SAVED').execute();
    expect(journal).toContainEqual({ message: `${APPROVER} chose one mail a day about approval work, at 07:00 Europe/Berlin.`, organization_id: t.org.operator });

    const kept = (await t.call(SUPERVISOR, { method: 'GET', url: '/api/notices/preferences' })).json();
    const wrongZone = await choose(SUPERVISOR, 'digest', 'Mars/Olympus');
    expect(wrongZone.statusCode).toBe(400);
    expect(wrongZone.json().message).toContain("'Mars/Olympus' is not a time zone");
    expect((await t.call(SUPERVISOR, { method: 'GET', url: '/api/notices/preferences' })).json()).toEqual(kept);

    for (const who of [ISSUER, 'admin@operator.example', 'devops@operator.example']) {
      expect((await choose(who, 'digest')).statusCode).toBe(403);
      expect((await t.call(who, { method: 'GET', url: '/api/notices/preferences' })).statusCode).toBe(403);
    }
    await choose(APPROVER, 'each');
  });

  /** A customer's upload, waiting for approval (the tests run shuffled: one may have approved the demo's). */
  async function upload() {
    const now = t.clock.now().getTime();
    const { pem } = await makeCertificate({ subject: `CN=digest-${dialect}-${++serial}.contoso.example`, notBefore: new Date(now - DAY), notAfter: new Date(now + 300 * DAY) });
    const uploaded = await t.call(ISSUER, { method: 'POST', url: `/api/organizations/${t.org.contoso}/certificates`, payload: { description: '', certificate: pem } });
    expect(uploaded.statusCode).toBe(201);
    return uploaded.json().distinguished_name as string;
  }

  it('keeps the bell but stops the mail per request for who chose the digest; the others are mailed as before', async () => {
    await choose(APPROVER, 'digest');
    try {
      await scanTime(t.db, t.clock.now());
      const now = t.clock.now().getTime();
      const dn = await upload();
      const due = new Date(now + 3 * DAY);
      await scanTime(t.db, due);
      await dispatchEvents(t.db, due, OPTIONS);

      const notices = await t.db.selectFrom('notices').innerJoin('events', 'events.event_id', 'notices.event_id')
        .innerJoin('members', 'members.member_id', 'notices.member_id').select('members.member_email')
        .where('events.subject_id', '=', dn).where('notices.event_type', '=', 'certificate.approval_waiting').execute();
      expect(notices.map((n) => n.member_email)).toContain(APPROVER);
      const mails = await t.db.selectFrom('mail_outbox').innerJoin('events', 'events.event_id', 'mail_outbox.event_id').select('recipients')
        .where('events.subject_id', '=', dn).where('events.event_type', '=', 'certificate.approval_waiting').execute();
      const mailed = mails.flatMap((m) => JSON.parse(m.recipients) as string[]);
      expect(mailed).toContain(SUPERVISOR);
      expect(mailed).not.toContain(APPROVER);
    } finally {
      await choose(APPROVER, 'each');
    }
  });

  it('comes once a local day from 07:00 in the chooser\'s zone, with the count, the oldest and the link, even from two runs at once', async () => {
    await choose(APPROVER, 'digest', 'Pacific/Auckland');
    try {
      await upload();
      // 2026-04-01 in Auckland (NZST, UTC+12 from 5 April; NZDT +13 before): 07:00 there is 2026-03-31T18:00Z.
      const seven = Date.parse('2026-03-31T18:00:00Z');
      expect(await sendDigests(t.db, new Date(seven - 1), OPTIONS)).toBe(0);
      expect(await digestsOf(APPROVER)).toEqual([]);

      const runs = await Promise.all([sendDigests(t.db, new Date(seven), OPTIONS), sendDigests(t.db, new Date(seven + 1), OPTIONS)]);
      expect(runs[0] + runs[1]).toBe(1);
      expect(await sendDigests(t.db, new Date(seven + 10 * 3_600_000), OPTIONS)).toBe(0);
      const digests = await digestsOf(APPROVER);
      expect(digests).toHaveLength(1);

      // What Pending Tasks shows the approver then: the same count, its oldest request first.
      t.clock.set(new Date(seven));
      const pending = (await t.call(APPROVER, { method: 'GET', url: '/api/approve?limit=1' })).json();
      const count = pending.certificates_total + pending.licenses_total;
      expect(count).toBeGreaterThan(0);
      const requests = count === 1 ? '1 request' : `${count} requests`;
      expect(digests[0].subject).toBe(`[Customer Portal] ${requests} waiting for approval`);
      expect(digests[0].text_body).toContain(`${requests} wait${count === 1 ? 's' : ''} for your approval (2026-04-01).`);
      expect(digests[0].text_body).toMatch(/The oldest, (Certificate|License) .+ of .+, has waited \d+ days? \(since \d\d-[A-Z]{3}-\d{4} \d\d:\d\d:\d\d UTC\)\./);
      expect(digests[0].text_body).toContain('Open Pending Tasks: http://localhost:8080/admin/pending-tasks');
      expect(digests[0].html_body).toContain('<a href="http://localhost:8080/admin/pending-tasks">Open Pending Tasks</a>');

      // The next local day, again once.
      expect(await sendDigests(t.db, new Date(seven + DAY - 1), OPTIONS)).toBe(0);
      expect(await sendDigests(t.db, new Date(seven + DAY), OPTIONS)).toBe(1);
      // The supervisor, who did not choose it, gets none.
      expect(await digestsOf(SUPERVISOR)).toEqual([]);
    } finally {
      await choose(APPROVER, 'each');
    }
  });

  it('sends nothing on a day when nothing waits, nor without mail, and marks the day decided', async () => {
    await choose(SUPERVISOR, 'digest', 'UTC');
    try {
      const day = Date.parse('2026-05-10T07:00:00Z');
      expect(await sendDigests(t.db, new Date(day), { ...OPTIONS, mail: false })).toBe(0);
      await t.db.transaction().execute(async (tx) => {
        const at = new Date(day).toISOString();
        await tx.updateTable('certificates').set({ date_approved: at }).where('date_approved', 'is', null).where('date_revoked', 'is', null).execute();
        await tx.updateTable('licenses').set({ date_approved: at }).where('date_approved', 'is', null).where('date_rejected', 'is', null).execute();
      });
      expect(await sendDigests(t.db, new Date(day), OPTIONS)).toBe(0);
      expect(await digestsOf(SUPERVISOR)).toEqual([]);
      const mark = await t.db.selectFrom('digest_marks').innerJoin('members', 'members.member_id', 'digest_marks.member_id')
        .select(['digest_day', 'waiting']).where('members.member_email', '=', SUPERVISOR).execute();
      expect(mark).toEqual([{ digest_day: '2026-05-10', waiting: 0 }]);
    } finally {
      await choose(SUPERVISOR, 'each');
    }
  });
});
