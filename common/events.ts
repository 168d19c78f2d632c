/**
 * The events the portal tells people and webhooks about (issue 13; docs/decisions.md
 * "Notifications"). The names are a contract with webhook receivers: add, never rename.
 */
import type { Role } from './enums';

export const EVENT_TYPES = [
  'certificate.uploaded', 'certificate.approved', 'certificate.revoked', 'certificate.removed',
  'certificate.expiring', 'certificate.expired', 'certificate.approval_waiting',
  'license.requested', 'license.approved', 'license.rejected', 'license.renewed',
  'license.expiring', 'license.expired', 'license.approval_waiting',
  'member.banned', 'member.unbanned', 'organization.banned', 'organization.unbanned',
  'role.assigned', 'role.unassigned', 'token.created', 'token.revoked', 'member.invited',
  'api_key.created', 'api_key.revoked', 'api_key.expiring',
  'role.expiring', 'role.expired',
  'support_access.requested', 'support_access.approved', 'support_access.denied', 'support_access.ended',
  'support_access.expired', 'support_access.break_glass',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** What a person reads for each event on the Notifications screen. */
export const EVENT_LABELS: Record<EventType, string> = {
  'certificate.uploaded': 'Certificate uploaded',
  'certificate.approved': 'Certificate approved',
  'certificate.revoked': 'Certificate revoked',
  'certificate.removed': 'Certificate removed',
  'certificate.expiring': 'Certificate expires soon',
  'certificate.expired': 'Certificate expired',
  'certificate.approval_waiting': 'Certificate waits for approval',
  'license.requested': 'License requested',
  'license.approved': 'License approved',
  'license.rejected': 'License rejected',
  'license.renewed': 'License renewed',
  'license.expiring': 'License expires soon',
  'license.expired': 'License expired',
  'license.approval_waiting': 'License waits for approval',
  'member.banned': 'Member banned',
  'member.unbanned': 'Member unbanned',
  'organization.banned': 'Organization banned',
  'organization.unbanned': 'Organization unbanned',
  'role.assigned': 'Role assigned',
  'role.unassigned': 'Role removed',
  'token.created': 'API token made',
  'token.revoked': 'API token revoked',
  'member.invited': 'Member invited',
  'api_key.created': 'API key created',
  'api_key.revoked': 'API key revoked',
  'api_key.expiring': 'API key expires soon',
  'role.expiring': 'Role ends soon',
  'role.expired': 'Role ended',
  'support_access.requested': 'Support access requested',
  'support_access.approved': 'Support access approved',
  'support_access.denied': 'Support access denied',
  'support_access.ended': 'Support access ended',
  'support_access.expired': 'Support access expired',
  'support_access.break_glass': 'Support access by break glass',
};

/** The object an event is about. */
export type SubjectType = 'certificate' | 'license' | 'member' | 'organization' | 'token' | 'invitation' | 'api_key' | 'support_access';

/** The version of the payload's `data` shape; receivers can rely on it (docs/decisions.md). */
export const EVENT_DATA_VERSION = 1;

/** An organization's rules (issue 13 item 2). */
export interface NotificationSettings {
  /** The events that make notices, mails (webhooks choose their own). */
  events: EventType[];
  /** Days before the end of validity at which an "expires soon" event is made. */
  expiry_days: number[];
  /** Days a certificate or license may wait for approval before an "approval waiting" event. */
  waiting_days: number;
  /** Members holding one of these roles in the organization receive notices and mails. */
  recipient_roles: Role[];
  /** Addresses mailed besides the members. */
  extra_addresses: string[];
  /** Send mails (when the portal has SMTP); notices in the portal are made either way. */
  email: boolean;
}

export const DEFAULT_NOTIFICATION_SETTINGS: NotificationSettings = {
  events: [
    'certificate.approved', 'certificate.revoked', 'certificate.expiring', 'certificate.expired', 'certificate.approval_waiting',
    'license.approved', 'license.rejected', 'license.expiring', 'license.expired', 'license.approval_waiting',
  ],
  expiry_days: [30, 14, 7, 1],
  waiting_days: 3,
  recipient_roles: ['ADMINISTRATOR', 'ISSUER', 'APPROVER'],
  extra_addresses: [],
  email: true,
};
