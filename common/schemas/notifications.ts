/** Notification rules and notices (issue 13): the API's bodies, shared with the web forms. */
import { z } from 'zod';
import { ROLES } from '../enums';
import { EVENT_TYPES } from '../events';
import { text } from './text';
import { strictBody } from './body';

const unique = <T>(items: T[]) => new Set(items).size === items.length;

const settingsShape = {
  events: z.array(z.enum(EVENT_TYPES)).max(EVENT_TYPES.length).refine(unique, 'must not repeat an event'),
  expiry_days: z.array(z.number().int().min(1).max(365)).min(1, 'needs at least one threshold').max(8).refine(unique, 'must not repeat a threshold'),
  waiting_days: z.number().int().min(1).max(90),
  recipient_roles: z.array(z.enum(ROLES)).max(ROLES.length).refine(unique, 'must not repeat a role'),
  extra_addresses: z.array(text().max(320).regex(/^[^\s@,;<>]+@[^\s@,;<>]+\.[^\s@,;<>]+$/, 'an email address')).max(20).refine(unique, 'must not repeat an address'),
  email: z.boolean(),
};

export const notificationSettingsSchema = z.object({
  ...settingsShape,
  /** No rules saved yet: these are the defaults. */
  is_default: z.boolean(),
  date_updated: z.string().nullable(),
  /** Whether the portal can send mail (SMTP_URL is set). */
  email_configured: z.boolean(),
});
export type NotificationSettingsView = z.infer<typeof notificationSettingsSchema>;

/** PUT's body: the rules; the read-only fields of GET's answer may be sent back and are dropped. */
export const notificationSettingsBodySchema = strictBody(settingsShape, notificationSettingsSchema);
export type NotificationSettingsBody = z.output<typeof notificationSettingsBodySchema>;

const noticeSchema = z.object({
  notice_id: z.number(),
  organization_id: z.string().nullable(),
  event_type: z.string(),
  title: z.string(),
  link: z.string().nullable(),
  date_created: z.string(),
  date_read: z.string().nullable(),
});
export type Notice = z.infer<typeof noticeSchema>;

export const noticePageSchema = z.object({
  items: z.array(noticeSchema),
  unread: z.number(),
  /** The id to pass as `before` for the next (older) page; null at the end. */
  next_before: z.number().nullable(),
});
export type NoticePage = z.infer<typeof noticePageSchema>;

export const noticeQuerySchema = z.object({
  before: z.coerce.number().int().positive().optional(),
  unread: z.enum(['true', 'false']).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(25),
});

export const markReadBodySchema = strictBody({
  /** The notices to mark read; none: all of the caller's. */
  notice_ids: z.array(z.number().int().positive()).max(500).optional(),
});

/** How a person who settles approvals is mailed about them (issue 34): one mail per request, or one digest a day. */
const APPROVAL_MAIL = ['each', 'digest'] as const;

/** The local hour at which a daily digest is mailed, in the person's zone (docs/decisions.md "Approval digest"). */
export const DIGEST_HOUR = 7;

export const mailPreferencesSchema = z.object({
  approval_mail: z.enum(APPROVAL_MAIL),
  /** The IANA zone whose morning the digest comes in: the browser's when saved, UTC before. */
  time_zone: z.string(),
  /** Nothing saved yet: one mail per request, as the organization's rules say. */
  is_default: z.boolean(),
  /** Whether the portal can send mail (SMTP_URL is set). */
  email_configured: z.boolean(),
});
export type MailPreferences = z.infer<typeof mailPreferencesSchema>;

export const mailPreferencesBodySchema = strictBody({
  approval_mail: z.enum(APPROVAL_MAIL),
  time_zone: text().max(64),
}, mailPreferencesSchema);
export type MailPreferencesBody = z.output<typeof mailPreferencesBodySchema>;
