/**
 * Sends the queued mails (issue 13 item 3) through SMTP with nodemailer, each to its one recipient in
 * `To:`, marked as sent by a machine (issue 31 item 5). A sender takes due mails
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

/**
 * Headers of every notification mail: it is sent by a machine (RFC 3834), so out-of-office and other
 * automatic replies are not sent back to it, where they would loop or fill a mailbox nobody reads.
 * Exchange and Outlook read their own header for the same.
 */
const AUTOMATIC = { 'Auto-Submitted': 'auto-generated', 'X-Auto-Response-Suppress': 'All' };

/** The outbox's event of a mail that answers to no one event (the daily digest, digest.ts): journaled on its own. */
export const NO_EVENT = 0;

type Taken = { mail_id: number; event_id: number; organization_id: string | null; recipients: string; subject: string; text_body: string; html_body: string; attempts: number };
type Outcome = { mail: Taken; sentTo: string[]; failedTo: string[]; error: string | null };

/**
 * Sends the mails due at `now`, at most `batch`; answers how many were sent. Each goes to its
 * recipient alone, in `To:` (the dispatcher queues one per recipient; a mail queued with several,
 * before that, goes to each in turn and keeps for later only the ones that failed).
 */
export async function sendDueMails(db: Db, now: Date, options: MailOptions, batch = 20): Promise<number> {
  const at = now.toISOString();
  const taken = await db.transaction().execute(async (tx) => {
    const skipLocked = isPostgres(tx) ? sql` for update skip locked` : sql``;
    const { rows } = await sql<Taken>`
      select mail_id, event_id, organization_id, recipients, subject, text_body, html_body, attempts from mail_outbox
      where date_sent is null and date_failed is null and next_attempt_at <= ${at}
      order by next_attempt_at, mail_id limit ${batch}${skipLocked}`.execute(tx);
    if (rows.length) {
      await tx.updateTable('mail_outbox').set({ next_attempt_at: new Date(now.getTime() + LEASE_MS).toISOString() })
        .where('mail_id', 'in', rows.map((r) => r.mail_id)).execute();
    }
    return rows;
  });
  // By event and organization (an approval's mails go to its organization's people and to the operator's approvers,
  // each journaled in their own): the journal says once whom it was mailed to, as when one mail had them all.
  const byEvent = new Map<string, Outcome[]>();
  let sent = 0;
  for (const mail of taken) {
    const outcome: Outcome = { mail, sentTo: [], failedTo: [], error: null };
    for (const to of JSON.parse(mail.recipients) as string[]) {
      try {
        await options.transport.sendMail({ from: options.from, to, subject: mail.subject, text: mail.text_body, html: mail.html_body, headers: AUTOMATIC });
        outcome.sentTo.push(to);
      } catch (e) {
        outcome.failedTo.push(to);
        outcome.error = e instanceof Error ? e.message : String(e);
      }
    }
    if (!outcome.failedTo.length) sent++;
    const key = Number(mail.event_id) === NO_EVENT ? `mail ${mail.mail_id}` : `${mail.event_id} ${mail.organization_id}`;
    byEvent.set(key, [...(byEvent.get(key) ?? []), outcome]);
  }
  for (const outcomes of byEvent.values()) await record(db, outcomes, now);
  return sent;
}

/** One event's mails of this run in one organization, in one transaction: sent, or tried again later, or failed for good; journaled. */
async function record(db: Db, outcomes: Outcome[], now: Date): Promise<void> {
  const at = now.toISOString();
  const { organization_id, subject } = outcomes[0].mail;
  await db.transaction().execute(async (tx) => {
    for (const { mail, failedTo, error } of outcomes) {
      const attempts = Number(mail.attempts) + 1;
      if (!failedTo.length) {
        await tx.updateTable('mail_outbox').set({ attempts, date_sent: at, last_error: null }).where('mail_id', '=', mail.mail_id).execute();
        continue;
      }
      const next = nextAttemptAt(attempts, now);
      await tx.updateTable('mail_outbox')
        .set({ attempts, recipients: JSON.stringify(failedTo), last_error: (error ?? '').slice(0, 500), next_attempt_at: (next ?? now).toISOString(), date_failed: next ? null : at })
        .where('mail_id', '=', mail.mail_id).execute();
      if (!next) {
        await audit(tx, {
          reason: 'NOTICE_FAILED', message: `Gave up mailing "${mail.subject}" to ${failedTo.join(', ')} after ${MAX_ATTEMPTS} attempts: ${(error ?? '').slice(0, 200)}`,
          organization_id: mail.organization_id, member_email: null, now,
        });
      }
    }
    const sentTo = outcomes.flatMap((o) => o.sentTo);
    if (sentTo.length) {
      await audit(tx, { reason: 'NOTICE_SENT', message: `Mailed "${subject}" to ${sentTo.length === 1 ? sentTo[0] : `${sentTo.length} recipients`}.`, organization_id, member_email: null, now });
    }
  });
}
