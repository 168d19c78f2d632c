import { z } from 'zod';
import { abilitiesOf } from './abilities';
import { strictBody } from './body';
import { ROLES, SCOPES } from '../enums';
import { paging, sortParam } from './lists';
import { MEMBER_SORTS, type SortOf } from '../sorts';
import { optionalText } from './organization';
import { text } from './text';

/** A role assignment of a member, in whichever organization it belongs to (SPEC.md §3). */
export const memberRoleSchema = z.object({
  organization_id: z.string(),
  organization_name: z.string(),
  role: z.enum(ROLES),
  scope: z.enum(SCOPES),
  /** The instant from which the role no longer counts (issue 33); null: standing until taken away. */
  until: z.string().nullable(),
});
export type MemberRole = z.infer<typeof memberRoleSchema>;

/** SPEC.md §3 "Member". `roles` lists the assignments in organizations the caller can read. */
export const memberSchema = z.object({
  member_id: z.string(),
  name: z.string(),
  given_name: z.string().nullable(),
  family_name: z.string().nullable(),
  job_role: z.string().nullable(),
  member_email: z.string(),
  mobile_phone: z.string().nullable(),
  office_phone: z.string().nullable(),
  address: z.string().nullable(),
  date_member_banned: z.string().nullable(),
  ban_note: z.string().nullable(),
  organization_id: z.string(),
  organization_name: z.string(),
  roles: z.array(memberRoleSchema),
  abilities: abilitiesOf('member'),
});
export type Member = z.infer<typeof memberSchema>;

export type MemberSort = SortOf<(typeof MEMBER_SORTS)[number]>;

/** GET .../members?filter and GET /api/members?filter: name or email contains the text. */
export const memberListQuery = z.object({
  filter: text().max(200).optional(),
  ...paging,
  sort: sortParam(MEMBER_SORTS),
});
export type MemberListQuery = z.infer<typeof memberListQuery>;
/** GET .../members.csv: the list's filter and order, every row. */
export const memberExportQuery = memberListQuery.omit({ offset: true, limit: true });
export type MemberExportQuery = z.infer<typeof memberExportQuery>;

// Digits with the usual separators, an optional leading + and an optional extension ("x12", "ext. 12").
const PHONE = /^\+?[0-9()./\s-]*(?:(?:x|ext\.?)\s*[0-9]+)?$/i;
const phone = text()
  .max(50, 'at most 50 characters')
  .regex(PHONE, 'digits, spaces, + ( ) . / - and an optional extension')
  .transform((s) => s.trim() || null)
  .nullable()
  .optional();

/**
 * PUT .../members/{memberId}: the member as GET returns it; fields left out stay as they are.
 * `member_email` is read-only: it may be sent back unchanged, a different one is refused.
 */
export const memberUpdateSchema = strictBody({
  name: text().trim().min(1, 'required').max(200, 'at most 200 characters').optional(),
  given_name: optionalText(100),
  family_name: optionalText(100),
  job_role: optionalText(200),
  mobile_phone: phone,
  office_phone: phone,
  address: optionalText(1000),
  member_email: text().max(320).optional(),
}, memberSchema);
export type MemberUpdate = z.output<typeof memberUpdateSchema>;

/** POST .../roles/assign?role&scope[&until]: role and scope are required (SPEC.md §5); `until` makes it time-boxed (issue 33). */
export const assignQuery = z.object({
  role: z.enum(ROLES),
  scope: z.enum(SCOPES),
  until: z.iso
    .datetime({ offset: true, error: 'an ISO 8601 instant with its zone (2026-12-12T17:00:00Z)' })
    .transform((value) => new Date(value).toISOString())
    .optional()
    .describe('The instant from which the role no longer counts: after now and at most 365 days ahead. Left out: the role stands until taken away (assigning it again without `until` makes a time-boxed role standing).'),
});
export const unassignQuery = z.object({ role: z.enum(ROLES) });

/** GET .../members/{memberId}/status?email: the member's own email when none is given. */
export const statusQuery = z.object({
  email: text()
    .trim()
    .toLowerCase()
    .max(320, 'at most 320 characters')
    .regex(/^[^\s@]+@[^\s@]+$/, 'an email address')
    .optional(),
});

const SIGN_IN_STATUSES = ['MEMBER', 'TRUSTED_DOMAIN', 'BANNED_MEMBER', 'BANNED_ORGANIZATION', 'AMBIGUOUS_DOMAIN', 'UNKNOWN'] as const;

/** Whether and how a person with this email can sign in, in words for the notification. */
export const memberStatusSchema = z.object({
  email: z.string(),
  status: z.enum(SIGN_IN_STATUSES),
  can_sign_in: z.boolean(),
  /** The organization they are in or would join; null when unknown or not readable by the caller. */
  organization_name: z.string().nullable(),
  message: z.string(),
  severity: z.enum(['INFO', 'WARNING']),
});
export type MemberStatus = z.infer<typeof memberStatusSchema>;
