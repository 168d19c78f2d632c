/**
 * The one audit path. Services call `audit` inside the transaction of their change, so a change
 * and its record are committed together or not at all. Nothing updates or deletes records.
 */
import type { Queryable } from './database';

/** Reason codes, one per kind of change; the journal filters on them. */
export type AuditReason =
  | 'MEMBER_SIGNED_UP'
  | 'CERTIFICATE_UPLOADED' | 'CERTIFICATE_APPROVED' | 'CERTIFICATE_REVOKED' | 'CERTIFICATE_REMOVED'
  | 'CERTIFICATE_EXPIRY_ACKNOWLEDGED' | 'CERTIFICATE_DESCRIPTION_CHANGED'
  | 'LICENSE_REQUESTED' | 'LICENSE_APPROVED' | 'LICENSE_REJECTED' | 'LICENSE_RENEWED' | 'LICENSE_EXPIRY_ACKNOWLEDGED'
  | 'MEMBER_SAVED' | 'MEMBER_BANNED' | 'MEMBER_UNBANNED' | 'MEMBER_REMOVED'
  | 'ROLE_ASSIGNED' | 'ROLE_UNASSIGNED'
  | 'ORGANIZATION_CREATED' | 'ORGANIZATION_SAVED' | 'ORGANIZATION_BANNED' | 'ORGANIZATION_UNBANNED'
  | 'RESOURCE_CREATED' | 'RESOURCE_SAVED' | 'RESOURCE_REMOVED' | 'RESOURCE_GRANTED' | 'RESOURCE_REVOKED'
  | 'MASTER_SECRET_PROVIDED' | 'TOKEN_CREATED'
  | 'LIST_EXPORTED';

export interface AuditEntry {
  reason: AuditReason;
  message: string;
  /** The organization whose journal shows the record. */
  organization_id: string | null;
  /** Who did it. */
  member_email: string | null;
  now: Date;
}

export async function audit(db: Queryable, entry: AuditEntry): Promise<void> {
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
}
