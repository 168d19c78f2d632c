/**
 * The approvers' daily digest (issue 34 item 1, docs/decisions.md "Approval digest"): a person who settles
 * approvals and chose the digest (preferences.ts) gets, instead of a mail per request, one mail a day from
 * DIGEST_HOUR (07:00) in their zone, counting the requests waiting on their Pending Tasks, naming the oldest and
 * linking there; none on a day when nothing waits. Bell notices and webhooks are unchanged.
 *
 * Exactly once a day: the digest's mark (person, local day) is written in the transaction that queues the mail,
 * and its key refuses a second one, so two instances, a restart or a run that overlaps never send the day twice.
 * A portal down at 07:00 sends the day's digest at its first run after, the same day. The mail sender journals it
 * when sent (mail.ts), as it does every mail.
 */
import { canGlobally, type Actor } from '../../../common/policy';
import { formatUtcDateTime } from '../../../common/dates';
import { DIGEST_HOUR } from '../../../common/schemas/notifications';
import { localDateIn } from '../../../common/zones';
import { TZDate } from '@date-fns/tz';
import type { Db, Queryable, Tx } from '../../db/database';
import { assignmentOf, loadAssignments } from '../../auth/actor';
import { readableOrganizationIds } from '../../access/tree';
import * as certificates from '../certificates/service';
import * as licenses from '../licenses/service';
import type { DispatchOptions } from './dispatch';

import { NO_EVENT } from './mail';

interface Chooser {
  member_id: string;
  member_email: string;
  organization_id: string;
  organization_role: Actor['organization_role'];
  time_zone: string;
}

interface Waiting {
  count: number;
  /** The request that has waited longest: what it is and since when. */
  oldest: { what: string; organization_name: string; date_created: string } | null;
}

type Row = { organization_name: string; date_created: string };

/** The approval requests waiting on this person's Pending Tasks at `now`: its two lists' totals and first rows. */
async function waitingFor(db: Queryable, actor: Actor, now: Date): Promise<Waiting> {
  const organizations = await readableOrganizationIds(db, actor);
  const first = { offset: 0, limit: 1 };
  // The pages Pending Tasks reads (oldest request first), as the JSON they answer with.
  const [certificatePage, licensePage] = await Promise.all([
    certificates.pendingPage(db, actor, organizations, 'approval', now, first),
    licenses.pendingPage(db, actor, organizations, 'approval', now, first),
  ]);
  const rows = <T extends Row>(page: { json: Buffer }) => JSON.parse(page.json.toString('utf8')) as T[];
  const candidates = [
    ...rows<Row & { distinguished_name: string }>(certificatePage).map((c) => ({ ...c, what: `Certificate ${c.distinguished_name}` })),
    ...rows<Row & { license_name: string }>(licensePage).map((l) => ({ ...l, what: `License ${l.license_name}` })),
  ].sort((a, b) => a.date_created.localeCompare(b.date_created));
  const oldest = candidates[0];
  return {
    count: certificatePage.total + licensePage.total,
    oldest: oldest ? { what: oldest.what, organization_name: oldest.organization_name, date_created: oldest.date_created } : null,
  };
}

/** Unbanned members of unbanned organizations who chose the digest. */
async function choosers(db: Queryable): Promise<Chooser[]> {
  return db.selectFrom('mail_preferences as p')
    .innerJoin('members as m', 'm.member_id', 'p.member_id')
    .innerJoin('organizations as o', 'o.organization_id', 'm.organization_id')
    .select(['m.member_id', 'm.member_email', 'm.organization_id', 'o.organization_role', 'p.time_zone'])
    .where('p.approval_mail', '=', 'digest')
    .where('m.date_member_banned', 'is', null)
    .where('o.date_organization_banned', 'is', null)
    .orderBy('m.member_id')
    .execute();
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The digest's text, the oldest request's wait in whole days and its creation zone-explicit (SPEC.md §9). */
function digestText(waiting: Waiting, day: string, url: string, now: Date): { subject: string; text: string; html: string } {
  const requests = `${waiting.count} request${waiting.count === 1 ? '' : 's'}`;
  const subject = `[Customer Portal] ${requests} waiting for approval`;
  const lines = [`${requests} wait${waiting.count === 1 ? 's' : ''} for your approval (${day}).`];
  if (waiting.oldest) {
    const days = Math.floor((now.getTime() - Date.parse(waiting.oldest.date_created)) / 86_400_000);
    const since = days >= 1 ? `${days} day${days === 1 ? '' : 's'}` : 'less than a day';
    lines.push(`The oldest, ${waiting.oldest.what} of ${waiting.oldest.organization_name}, has waited ${since} (since ${formatUtcDateTime(waiting.oldest.date_created)}).`);
  }
  const because = 'You receive this once a day because you chose a daily digest of approval work (Notices → Approval mail).';
  return {
    subject,
    text: `${lines.join('\n')}\n\nOpen Pending Tasks: ${url}\n\n${because}\n`,
    html: lines.map((l) => `<p>${escapeHtml(l)}</p>`).join('') + `<p><a href="${escapeHtml(url)}">Open Pending Tasks</a></p>`
      + `<p style="color:#666">${escapeHtml(because)}</p>`,
  };
}

/** Decides one person's digest for the day in one transaction: answers whether a mail was queued. */
async function decide(tx: Tx, person: Chooser, day: string, now: Date, options: DispatchOptions): Promise<boolean> {
  const roles = (await loadAssignments(tx, person.member_id, now)).map(assignmentOf);
  const actor: Actor = { member_id: person.member_id, organization_id: person.organization_id, organization_role: person.organization_role, roles };
  // Who no longer settles approvals has no digest (their preference stays for a role given back).
  if (!canGlobally(actor, 'approval.review')) return false;
  const waiting = await waitingFor(tx, actor, now);
  const at = now.toISOString();
  const mark = await tx.insertInto('digest_marks').values({ member_id: person.member_id, digest_day: day, waiting: waiting.count, date_created: at })
    .onConflict((oc) => oc.doNothing()).executeTakeFirst();
  if (Number(mark.numInsertedOrUpdatedRows ?? 0) === 0 || waiting.count === 0) return false;
  const mail = digestText(waiting, day, `${options.publicUrl}/admin/pending-tasks`, now);
  await tx.insertInto('mail_outbox').values({
    event_id: NO_EVENT, organization_id: person.organization_id, recipients: JSON.stringify([person.member_email]),
    subject: mail.subject, text_body: mail.text, html_body: mail.html,
    next_attempt_at: at, last_error: null, date_sent: null, date_failed: null, date_created: at,
  }).execute();
  return true;
}

/** Queues the digests due at `now` (their local hour reached, not yet decided today); answers how many mails. */
export async function sendDigests(db: Db, now: Date, options: DispatchOptions): Promise<number> {
  if (!options.mail) return 0;
  let queued = 0;
  for (const person of await choosers(db)) {
    if (new TZDate(now.getTime(), person.time_zone).getHours() < DIGEST_HOUR) continue;
    const day = localDateIn(now, person.time_zone);
    const decided = await db.selectFrom('digest_marks').select('member_id')
      .where('member_id', '=', person.member_id).where('digest_day', '=', day).executeTakeFirst();
    if (decided) continue;
    if (await db.transaction().execute((tx) => decide(tx, person, day, now, options))) queued++;
  }
  return queued;
}
