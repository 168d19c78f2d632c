/**
 * The invitation mail (issue 34 item 2): a `member.invited` event (an invitation sent or resent) mails the
 * invited address, whatever the organization's notification rules, since it is the invitation itself. It
 * goes through the mail outbox like every notification (mail.ts: retried, journaled when sent) and links to
 * the portal's sign-in, where signing in with that address accepts it.
 */
import { formatUtcDateTime } from '../../../common/dates';
import { label } from '../../../common/enums';
import type { Tx } from '../../db/database';

/** What the invitation's event carries about it (invitations/service.ts subjectOf). */
interface InvitationDetails {
  email: string;
  role: string;
  scope: string;
  organization_name: string;
  date_expires: string;
  invited_by: string | null;
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export async function queueInvitationMail(
  tx: Tx, event: { event_id: number; organization_id: string | null; data: string }, now: Date, publicUrl: string,
): Promise<void> {
  const subject = (JSON.parse(event.data) as { subject: InvitationDetails }).subject;
  const url = `${publicUrl}/login`;
  const who = subject.invited_by ?? 'An administrator';
  const invited = `${who} invited you to join ${subject.organization_name} in the Customer Portal as ${label(subject.role)} (${label(subject.scope)}).`;
  const how = `Sign in with this address, ${subject.email}, before ${formatUtcDateTime(subject.date_expires)}; the invitation ends then.`;
  const at = now.toISOString();
  await tx.insertInto('mail_outbox').values({
    event_id: event.event_id, organization_id: event.organization_id, recipients: JSON.stringify([subject.email]),
    subject: `[Customer Portal] Invitation to ${subject.organization_name}`,
    text_body: `${invited}\n\n${how}\n\nSign in: ${url}\n\nIf you did not expect this, ignore this mail: nothing happens unless you sign in.\n`,
    html_body: `<p>${escapeHtml(invited)}</p><p>${escapeHtml(how)}</p><p><a href="${escapeHtml(url)}">Sign in to the Customer Portal</a></p>`
      + '<p style="color:#666">If you did not expect this, ignore this mail: nothing happens unless you sign in.</p>',
    next_attempt_at: at, last_error: null, date_sent: null, date_failed: null, date_created: at,
  }).execute();
}
