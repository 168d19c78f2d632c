/**
 * The one audit path. Services call `audit` inside the transaction of their change, so a change
 * and its record are committed together or not at all. Nothing updates or deletes records.
 *
 * It is also where events start (issue 13): a record whose reason is an event (EVENT_OF) writes
 * that event to the outbox in the same transaction, so a change that commits always notifies and
 * one that rolls back never does, even when the process is killed in between.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { EVENT_DATA_VERSION, type EventType, type SubjectType } from '../../common/events';
import type { Queryable } from './database';

/** Reason codes, one per kind of change; the journal filters on them. */
export type AuditReason =
  | 'MEMBER_SIGNED_UP'
  | 'CERTIFICATE_UPLOADED' | 'CERTIFICATE_APPROVED' | 'CERTIFICATE_REVOKED' | 'CERTIFICATE_REMOVED'
  | 'CERTIFICATE_EXPIRY_ACKNOWLEDGED' | 'CERTIFICATE_DESCRIPTION_CHANGED'
  | 'LICENSE_REQUESTED' | 'LICENSE_APPROVED' | 'LICENSE_REJECTED' | 'LICENSE_RENEWED' | 'LICENSE_EXPIRY_ACKNOWLEDGED'
  | 'MEMBER_SAVED' | 'MEMBER_BANNED' | 'MEMBER_UNBANNED' | 'MEMBER_REMOVED'
  | 'ROLE_ASSIGNED' | 'ROLE_UNASSIGNED' | 'ROLE_EXPIRED'
  | 'INVITATION_SENT' | 'INVITATION_RESENT' | 'INVITATION_REVOKED' | 'INVITATION_ACCEPTED'
  | 'ORGANIZATION_CREATED' | 'ORGANIZATION_SAVED' | 'ORGANIZATION_BANNED' | 'ORGANIZATION_UNBANNED'
  | 'RESOURCE_CREATED' | 'RESOURCE_SAVED' | 'RESOURCE_REMOVED' | 'RESOURCE_GRANTED' | 'RESOURCE_REVOKED'
  | 'MASTER_SECRET_PROVIDED' | 'TOKEN_CREATED' | 'TOKEN_REVOKED'
  | 'LIST_EXPORTED'
  | 'NOTIFICATION_SETTINGS_SAVED' | 'MAIL_PREFERENCES_SAVED' | 'NOTICE_SENT' | 'NOTICE_FAILED'
  | 'WEBHOOK_CREATED' | 'WEBHOOK_SAVED' | 'WEBHOOK_REMOVED' | 'WEBHOOK_SECRET_ROTATED' | 'WEBHOOK_REDELIVERED'
  | 'WEBHOOK_DELIVERY_FAILED'
  | 'API_KEY_CREATED' | 'API_KEY_REVOKED'
  | 'SUPPORT_ACCESS_REQUESTED' | 'SUPPORT_ACCESS_APPROVED' | 'SUPPORT_ACCESS_DENIED' | 'SUPPORT_ACCESS_ENDED' | 'SUPPORT_ACCESS_EXPIRED'
  | 'SUPPORT_ACCESS_BREAK_GLASS' | 'SUPPORT_ACCESS_SETTINGS_SAVED';

/** The records that are events too, and which. */
const EVENT_OF: Partial<Record<AuditReason, EventType>> = {
  CERTIFICATE_UPLOADED: 'certificate.uploaded',
  CERTIFICATE_APPROVED: 'certificate.approved',
  CERTIFICATE_REVOKED: 'certificate.revoked',
  CERTIFICATE_REMOVED: 'certificate.removed',
  LICENSE_REQUESTED: 'license.requested',
  LICENSE_APPROVED: 'license.approved',
  LICENSE_REJECTED: 'license.rejected',
  LICENSE_RENEWED: 'license.renewed',
  MEMBER_BANNED: 'member.banned',
  MEMBER_UNBANNED: 'member.unbanned',
  ORGANIZATION_BANNED: 'organization.banned',
  ORGANIZATION_UNBANNED: 'organization.unbanned',
  ROLE_ASSIGNED: 'role.assigned',
  ROLE_UNASSIGNED: 'role.unassigned',
  ROLE_EXPIRED: 'role.expired',
  TOKEN_CREATED: 'token.created',
  TOKEN_REVOKED: 'token.revoked',
  // Sent and resent alike: each mails the invitee (notifications/dispatch.ts) and tells the organization's webhooks.
  INVITATION_SENT: 'member.invited',
  INVITATION_RESENT: 'member.invited',
  API_KEY_CREATED: 'api_key.created',
  API_KEY_REVOKED: 'api_key.revoked',
  SUPPORT_ACCESS_REQUESTED: 'support_access.requested',
  SUPPORT_ACCESS_APPROVED: 'support_access.approved',
  SUPPORT_ACCESS_DENIED: 'support_access.denied',
  SUPPORT_ACCESS_ENDED: 'support_access.ended',
  SUPPORT_ACCESS_EXPIRED: 'support_access.expired',
  SUPPORT_ACCESS_BREAK_GLASS: 'support_access.break_glass',
};

/** What a record is about: the event's subject, and what its data says of it. */
export interface AuditSubject {
  type: SubjectType;
  id: string;
  /** The object's fields receivers need without asking the API (a DN, a license name, an end of validity). */
  details?: Record<string, string | number | boolean | null>;
}

export interface AuditEntry {
  reason: AuditReason;
  message: string;
  /** The organization whose journal shows the record. */
  organization_id: string | null;
  /** Who did it. */
  member_email: string | null;
  now: Date;
  /** Required for the reasons that are events. */
  subject?: AuditSubject;
  /**
   * The second record of one change, in another organization's journal (a support request is journaled on the
   * customer's side and the operator's): the event is the first record's, so it is told once.
   */
  echo?: true;
}

/**
 * The API key a request acts with (auth/hook.ts), as the journal names it: every record of that request says the
 * key did it, and `member_email` is its creator's (issue 32: "the key as the actor and the person who created it").
 * Set here rather than by each service, so no change made with a key can be journaled as its creator's own.
 */
export const actingKey = new AsyncLocalStorage<string>();

/**
 * The vendor support accesses a request acts under (auth/hook.ts), by organization: a record in such an organization's
 * journal names the person "name (vendor support, request #N)" (issue 33), in every module alike.
 */
export const actingSupport = new AsyncLocalStorage<ReadonlyMap<string, string>>();

export async function audit(db: Queryable, entry: AuditEntry): Promise<void> {
  const key = actingKey.getStore();
  if (key) entry = { ...entry, message: `${key}: ${entry.message}` };
  const support = entry.organization_id ? actingSupport.getStore()?.get(entry.organization_id) : undefined;
  if (support) entry = { ...entry, message: `${support}: ${entry.message}` };
  await db
    .insertInto('audit_records')
    .values({
      organization_id: entry.organization_id,
      reason: entry.reason,
      message: entry.message,
      member_email: entry.member_email,
      date_created: entry.now.toISOString(),
    })
    .execute();
  const type = EVENT_OF[entry.reason];
  if (!type || entry.echo) return;
  if (!entry.subject) throw new Error(`audit ${entry.reason}: an event needs its subject`);
  await recordEvent(db, {
    type, organization_id: entry.organization_id, subject: entry.subject, now: entry.now,
    data: { message: entry.message, actor_email: entry.member_email },
  });
}

export interface NewEvent {
  type: EventType;
  organization_id: string | null;
  subject: AuditSubject;
  now: Date;
  data?: Record<string, unknown>;
}

/** Writes an event to the outbox (the caller's transaction); the dispatcher takes it from there. */
export async function recordEvent(db: Queryable, event: NewEvent): Promise<void> {
  const data = {
    version: EVENT_DATA_VERSION,
    organization_id: event.organization_id,
    subject: { type: event.subject.type, id: event.subject.id, ...event.subject.details },
    ...event.data,
  };
  await db.insertInto('events').values({
    event_type: event.type,
    organization_id: event.organization_id,
    subject_type: event.subject.type,
    subject_id: event.subject.id,
    data: JSON.stringify(data),
    date_created: event.now.toISOString(),
    date_dispatched: null,
  }).execute();
}
