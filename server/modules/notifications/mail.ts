/**
 * Sends the queued mails (issue 13 item 3) through SMTP with nodemailer. A sender takes due mails
 * by moving their next attempt a lease ahead (a short transaction), sends outside any transaction,
 * then records the outcome: sent (journaled), or the next attempt with backoff, or failed for good
 * after MAX_ATTEMPTS (journaled). A sender that dies mid-send leaves mails that come due again
 * when the lease runs out: a mail may then go twice, never not at all.
 */
import type { Transporter } from 'nodemailer';
import { sql } from 'kysely';
import { audit } from '../../db/audit';
import { isPostgres, type Db } from '../../db/database';
import { loadWhenUsed } from '../../load-when-used';
import { LEASE_MS, MAX_ATTEMPTS, nextAttemptAt } from '../../retry';

export interface MailOptions {
  transport: Transporter;
  from: string;
}

/** nodemailer, loaded only where mail is sent: without SMTP_URL it was about 80 ms of the start for nothing. */
const nodemailer = loadWhenUsed<typeof import('nodemailer')>('nodemailer');

export function smtpTransport(smtpUrl: string): Transporter {
  // Short timeouts: an SMTP server that hangs delays mails, never the portal.
  return nodemailer().createTransport(smtpUrl, { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 } as never);
}

/** Sends the mails due at `now`, at most `batch`; answers how many were sent. */
export async function sendDueMails(db: Db, now: Date, options: MailOptions, batch = 20): Promise<number> {
  const at = now.toISOString();
  const taken = await db.transaction().execute(async (tx) => {
    const skipLocked = isPostgres(tx) ? sql` for update skip locked` : sql``;
    const { rows } = await sql<{ mail_id: number; organization_id: string | null; recipients: string; subject: string; text_body: string; html_body: string; attempts: number }>`
      select mail_id, organization_id, recipients, subject, text_body, html_body, attempts from mail_outbox
      where date_sent is null and date_failed is null and next_attempt_at <= ${at}
      order by next_attempt_at, mail_id limit ${batch}${skipLocked}`.execute(tx);
    if (rows.length) {
      await tx.updateTable('mail_outbox').set({ next_attempt_at: new Date(now.getTime() + LEASE_MS).toISOString() })
        .where('mail_id', 'in', rows.map((r) => r.mail_id)).execute();
    }
    return rows;
  });
  let sent = 0;
  for (const mail of taken) {
    const recipients = JSON.parse(mail.recipients) as string[];
    const attempts = Number(mail.attempts) + 1;
    let error: string | null = null;
    try {
      // One mail per event, each recipient in Bcc: members of one organization do not see each other's addresses.
      await options.transport.sendMail({ from: options.from, bcc: recipients, subject: mail.subject, text: mail.text_body, html: mail.html_body });
    } catch (e) {
      error = e instanceof Error ? e.message : String(e);
    }
    await db.transaction().execute(async (tx) => {
      if (!error) {
        await tx.updateTable('mail_outbox').set({ attempts, date_sent: at, last_error: null }).where('mail_id', '=', mail.mail_id).execute();
        await audit(tx, { reason: 'NOTICE_SENT', message: `Mailed "${mail.subject}" to ${recipients.length === 1 ? recipients[0] : `${recipients.length} recipients`}.`, organization_id: mail.organization_id, member_email: null, now });
        return;
      }
      const next = nextAttemptAt(attempts, now);
      await tx.updateTable('mail_outbox')
        .set({ attempts, last_error: error.slice(0, 500), next_attempt_at: (next ?? now).toISOString(), date_failed: next ? null : at })
        .where('mail_id', '=', mail.mail_id).execute();
      if (!next) {
        await audit(tx, {
          reason: 'NOTICE_FAILED', message: `Gave up mailing "${mail.subject}" to ${recipients.join(', ')} after ${MAX_ATTEMPTS} attempts: ${error.slice(0, 200)}`,
          organization_id: mail.organization_id, member_email: null, now,
        });
      }
    });
    if (!error) sent++;
  }
  return sent;
}
