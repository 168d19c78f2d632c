/**
 * Fans the outbox's events out (issue 13): for each event, in one transaction, one notice for the
 * members its organization's rules name (notices.ts) and, for approval work, those of the operator's approvers
 * (approvers.ts, issue 34), a mail to each of them and of the extra addresses (the approvers' by
 * their own rules), and one delivery per active webhook endpoint that subscribes to it (approval
 * work: the operator's endpoints too); then the event is stamped dispatched. A crash before the
 * commit leaves the event waiting, after it leaves nothing to do:
 * each event is fanned out exactly once. Several instances take different events (SKIP LOCKED).
 */
import { randomUUID } from 'node:crypto';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { sql } from 'kysely';
import { EVENT_LABELS, type EventType } from '../../../common/events';
import { audit } from '../../db/audit';
import { isPostgres, type Db, type Tx } from '../../db/database';
import { roleCounts } from '../../db/role-end';
import { approvalWorkOperator, approversOf, isApprovalWork, type Approver } from './approvers';
import { digestChoosers } from './preferences';
import { domainOf, settingsOf, trustedDomainsOf } from './settings';
import { queueInvitationMail } from './invitation-mail';
import { audienceOf } from './notices';

export interface DispatchOptions {
  /** The portal's address, for links in mails. */
  publicUrl: string;
  /** Whether mails can be sent (SMTP_URL): without it none are queued. */
  mail: boolean;
}

type EventRow = { event_id: number; event_type: string; organization_id: string | null; subject_type: string; subject_id: string; data: string; date_created: string };

/** The screen of the event's object, as a path of the web app. */
function linkOf(event: Pick<EventRow, 'organization_id' | 'subject_type' | 'subject_id' | 'event_type'>): string | null {
  const org = event.organization_id;
  if (!org) return null;
  const base = `/organizations/${org}`;
  if (event.event_type === 'certificate.removed') return `${base}/certificates`;
  switch (event.subject_type) {
    case 'certificate': return `${base}/certificates/${encodeURIComponent(event.subject_id)}`;
    case 'license': return `${base}/licenses/${encodeURIComponent(event.subject_id)}`;
    case 'member': return `${base}/members/${encodeURIComponent(event.subject_id)}`;
    case 'organization': return `${base}/overview`;
    case 'invitation': return `${base}/members`;
    case 'api_key': return `${base}/api-keys`;
    case 'support_access': return `${base}/support-access`;
    default: return `${base}/auditrecords`;
  }
}

/** The members of the organization holding one of the roles there at `now` (a time-boxed one before its end), not banned. */
function holders(tx: Tx, organizationId: string, roles: string[], now: Date) {
  return tx.selectFrom('members')
    .innerJoin('role_assignments', 'role_assignments.member_id', 'members.member_id')
    .where('members.organization_id', '=', organizationId)
    .where('role_assignments.organization_id', '=', organizationId)
    .where('role_assignments.role', 'in', roles as never[])
    .where(roleCounts('role_assignments', now))
    .where('members.date_member_banned', 'is', null);
}

/** Those `holders`, each once by address; only those of `among` when given. */
async function recipients(tx: Tx, organizationId: string, roles: string[], now: Date, among?: string[]) {
  if (roles.length === 0 || among?.length === 0) return [];
  let q = holders(tx, organizationId, roles, now).select(['members.member_id', 'members.member_email']).distinct();
  if (among) q = q.where('members.member_id', 'in', among);
  return q.orderBy('members.member_email').execute();
}

/** How many `holders` there are, and the address of the one when there is one (the journal names them). */
async function recipientCount(tx: Tx, organizationId: string, roles: string[], now: Date): Promise<{ count: number; only: string | null }> {
  if (roles.length === 0) return { count: 0, only: null };
  const row = await holders(tx, organizationId, roles, now)
    .select((eb) => [eb.fn.count<number | string>('members.member_id').distinct().as('n'), eb.fn.min('members.member_email').as('only')])
    .executeTakeFirstOrThrow();
  const count = Number(row.n);
  return { count, only: count === 1 ? row.only : null };
}

/** The ends of time-boxed roles are told to the holder and the organization's administrators whatever its rules (issue 33). */
const ROLE_ENDS: ReadonlySet<string> = new Set<EventType>(['role.expiring', 'role.expired']);

/**
 * A support access's requests and changes are told to the organization's administrators, who consent, and to the
 * support person, whatever the organization's rules (issue 33 item 2); a break glass by every channel (below).
 */
const SUPPORT_EVENT = 'support_access.';
const BREAK_GLASS: EventType = 'support_access.break_glass';

/**
 * Those an event concerns whatever the rules, not banned: for a role's end, its holder (the event's subject) and the
 * organization's administrators; for a support access, the administrators and the support person.
 */
async function roleEndRecipients(tx: Tx, event: EventRow, now: Date) {
  const support = event.event_type.startsWith(SUPPORT_EVENT);
  if ((!ROLE_ENDS.has(event.event_type) && !support) || !event.organization_id) return [];
  const administrators = await recipients(tx, event.organization_id, ['ADMINISTRATOR'], now);
  const personId = support
    ? String((JSON.parse(event.data) as { subject?: { requester_member_id?: string } }).subject?.requester_member_id ?? '')
    : event.subject_id;
  const holder = await tx.selectFrom('members').select(['member_id', 'member_email'])
    .where('member_id', '=', personId).where('date_member_banned', 'is', null).execute();
  return [...holder, ...administrators.filter((a) => a.member_id !== personId)];
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Who got notices, for the journal: one member by address, more by count; the operator's approvers by count. */
function whom(members: { count: number; only: string | null }, approvers: number): string {
  const own = members.count === 1 ? members.only : members.count ? `${members.count} members` : '';
  const staff = approvers ? `${approvers} approver${approvers === 1 ? '' : 's'} of the operator` : '';
  return [own, staff].filter(Boolean).join(' and ');
}

/** The event's mails to these addresses, one each, journaled in `organizationId` when sent; `because` is our own text. */
async function queueMail(tx: Tx, event: EventRow, addresses: string[], organizationId: string, because: string, now: Date, options: DispatchOptions): Promise<void> {
  const type = event.event_type as EventType;
  const title = (JSON.parse(event.data) as { message?: string }).message ?? EVENT_LABELS[type];
  const link = linkOf(event);
  const url = link ? `${options.publicUrl}${link}` : options.publicUrl;
  const at = now.toISOString();
  // One mail per recipient, to them alone (mail.ts): nobody gets a list of others' addresses, and an address that
  // fails is retried on its own without mailing the rest again.
  await tx.insertInto('mail_outbox').values(addresses.map((address) => ({
    event_id: event.event_id, organization_id: organizationId, recipients: JSON.stringify([address]),
    subject: `[Customer Portal] ${EVENT_LABELS[type]}`,
    text_body: `${title}\n\nOpen it in the portal: ${url}\n\nYou receive this because of ${because}.\n`,
    html_body: `<p>${escapeHtml(title)}</p><p><a href="${escapeHtml(url)}">Open it in the portal</a></p>`
      + `<p style="color:#666">You receive this because of ${because}.</p>`,
    next_attempt_at: at, last_error: null, date_sent: null, date_failed: null, date_created: at,
  }))).execute();
}

/**
 * The approvers' mail follows their own organization's rules (the operator's): mailed when those have email on and
 * name the event. By default they name the reminders ("waits for approval"), not every upload or request.
 */
async function mailApprovers(tx: Tx, event: EventRow, approvers: Approver[], now: Date, options: DispatchOptions): Promise<void> {
  const operatorId = approvers[0].organization_id;
  const rules = (await settingsOf(tx, [operatorId])).get(operatorId)!;
  if (!rules.email || !rules.events.includes(event.event_type as EventType)) return;
  const addresses = [...new Set(approvers.map((a) => a.member_email))];
  await queueMail(tx, event, addresses, operatorId, 'the notification rules of your organization, whose approvers receive the requests waiting for approval', now, options);
}

async function fanOut(tx: Tx, event: EventRow, now: Date, options: DispatchOptions): Promise<void> {
  const type = event.event_type as EventType;
  const data = JSON.parse(event.data) as { message?: string };
  const title = data.message ?? EVENT_LABELS[type];
  const link = linkOf(event);
  const at = now.toISOString();
  if (event.organization_id) {
    const settings = (await settingsOf(tx, [event.organization_id])).get(event.organization_id)!;
    const told = settings.events.includes(type);
    const roles = told ? settings.recipient_roles : [];
    // The operator's approvers of approval work, whatever the organization's rules (it cannot turn its approvers off).
    const operator = await approvalWorkOperator(tx, type);
    const staff = await approversOf(tx, type, operator, event.organization_id, now);
    const roleEnds = await roleEndRecipients(tx, event, now);
    // The members the rules name are read one by one only to be mailed; otherwise counted, and looked for among the
    // few others told (the approvers are the operator's members). Read for every event, the large organization's
    // 539 were 18 % of the portal's time under 20 writers there, only to be counted.
    // A break glass is mailed even where the organization turned its mails off: it must not go unseen.
    const mailing = options.mail && (settings.email || type === BREAK_GLASS);
    const byRules = mailing ? await recipients(tx, event.organization_id, roles, now) : [];
    const others = [...roleEnds, ...(event.organization_id === operator ? staff : [])].map((m) => m.member_id);
    const ruled = mailing ? byRules : await recipients(tx, event.organization_id, roles, now, others);
    const counted = mailing ? { count: byRules.length, only: byRules[0]?.member_email ?? null } : await recipientCount(tx, event.organization_id, roles, now);
    const isRuled = (p: { member_id: string }) => ruled.some((m) => m.member_id === p.member_id);
    const concerned = roleEnds.filter((c) => !isRuled(c));
    const approvers = staff.filter((a) => !isRuled(a) && !concerned.some((c) => c.member_id === a.member_id));
    const members = [...byRules, ...concerned];
    // Who chose the daily digest (digest.ts) is mailed about approval work once a day instead; their bell is unchanged.
    const digest = options.mail && isApprovalWork(type) ? await digestChoosers(tx, [...members, ...approvers].map((m) => m.member_id)) : new Set<string>();
    const mailed = <P extends { member_id: string }>(people: P[]) => people.filter((p) => !digest.has(p.member_id));
    const membersTold = { count: counted.count + concerned.length, only: counted.count ? counted.only : concerned[0]?.member_email ?? null };
    if (membersTold.count || approvers.length) {
      // The members the rules name get one notice of the organization for their roles (notices.ts): an organization
      // of thousands writes one row, not one per member. Those concerned and the operator's approvers get their own.
      const shared = counted.count ? [{ member_id: null, audience: audienceOf(settings.recipient_roles) }] : [];
      const own = [...concerned, ...approvers].map((m) => ({ member_id: m.member_id, audience: null }));
      await tx.insertInto('notices').values([...shared, ...own].map((to) => ({
        ...to, event_id: event.event_id, organization_id: event.organization_id, event_type: type, title, link, date_created: at, date_read: null,
      }))).execute();
      await audit(tx, {
        // The count, not every address: an organization of hundreds would get a record of kilobytes per event.
        reason: 'NOTICE_SENT', message: `Notified ${whom(membersTold, approvers.length)} in the portal: ${title}`,
        organization_id: event.organization_id, member_email: null, now,
      });
    }
    if (told || concerned.length) {
      // Rules saved before extra addresses had to be at a trusted domain, or a domain since given up: not mailed.
      const trusted = settings.extra_addresses.length ? await trustedDomainsOf(tx, event.organization_id) : new Set<string>();
      const extra = told ? settings.extra_addresses.filter((a) => trusted.has(domainOf(a))) : [];
      const addresses = [...new Set([...mailed(members).map((m) => m.member_email), ...extra])];
      if (mailing && addresses.length) {
        await queueMail(tx, event, addresses, event.organization_id, 'your organization\'s notification rules', now, options);
      }
    }
    if (options.mail && mailed(approvers).length) await mailApprovers(tx, event, mailed(approvers), now, options);
    if (options.mail && type === 'member.invited') await queueInvitationMail(tx, event, now, options.publicUrl);
    const owners = [...new Set([event.organization_id, ...(operator ? [operator] : [])])];
    const endpoints = await tx.selectFrom('webhook_endpoints').select(['endpoint_id', 'events'])
      .where('organization_id', 'in', owners).where('active', '=', 1).execute();
    // A break glass goes to every active endpoint of the organization, subscribed to it or not.
    const subscribed = endpoints.filter((e) => type === BREAK_GLASS || (JSON.parse(e.events) as string[]).includes(type));
    if (subscribed.length) {
      // Standard Webhooks' payload: type, timestamp, data; the same bytes on every attempt.
      const payload = JSON.stringify({ type, timestamp: event.date_created, data: JSON.parse(event.data) });
      await tx.insertInto('webhook_deliveries').values(subscribed.map((e) => ({
        delivery_id: `msg_${randomUUID()}`, endpoint_id: e.endpoint_id, event_id: event.event_id, event_type: type,
        subject_key: `${event.subject_type}:${event.subject_id}`, payload, status: 'pending' as const,
        next_attempt_at: at, date_created: at, date_finished: null,
      }))).execute();
    }
  }
  await tx.updateTable('events').set({ date_dispatched: at }).where('event_id', '=', event.event_id).execute();
}

/**
 * Fans out the waiting events, a batch per transaction, the event loop's turn between batches; answers how many.
 * On SQLite every query answers at once, so without the turn a backlog of events ran as one task: 600 events after
 * 2 s of 300 writes a second held every request, /healthz too, for a second. A batch is 1-2 ms per event.
 */
export async function dispatchEvents(db: Db, now: Date, options: DispatchOptions, batch = 10): Promise<number> {
  let done = 0;
  for (;;) {
    if (done) await nextTurn();
    const count = await db.transaction().execute(async (tx) => {
      const skipLocked = isPostgres(tx) ? sql` for update skip locked` : sql``;
      const { rows } = await sql<EventRow>`
        select event_id, event_type, organization_id, subject_type, subject_id, data, date_created from events
        where date_dispatched is null order by event_id limit ${batch}${skipLocked}`.execute(tx);
      // By organization: each one's counters row (migration 0022) is then taken in one order by every dispatcher,
      // and a request, which takes the row of its own organization, never waits for one that waits for it.
      const byOrganization = [...rows].sort((a, b) => (a.organization_id ?? '').localeCompare(b.organization_id ?? '') || a.event_id - b.event_id);
      for (const event of byOrganization) await fanOut(tx, event, now, options);
      return rows.length;
    });
    done += count;
    if (count < batch) return done;
  }
}
