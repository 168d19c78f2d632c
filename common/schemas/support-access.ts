/** Vendor support access (issue 33 item 2): the API's bodies and answers, shared with the web forms. */
import { z } from 'zod';
import { ROLES } from '../enums';
import { SUPPORT_MAX_HOURS } from '../policy';
import { text } from './text';
import { strictBody } from './body';

const SUPPORT_STATES = ['REQUESTED', 'APPROVED', 'DENIED', 'ENDED', 'EXPIRED'] as const;

const supportRequestSchema = z.object({
  request_id: z.number().int().describe('The request\'s number: the "#N" of the journal and the banners.'),
  organization_id: z.string(),
  organization_name: z.string(),
  requester: z.object({ member_id: z.string(), name: z.string(), email: z.string() }),
  role: z.enum(ROLES),
  reason: z.string(),
  hours: z.number().int(),
  break_glass: z.boolean().describe('Taken by a supervisor without the customer\'s consent (at most 4 hours).'),
  state: z.enum(SUPPORT_STATES).describe('APPROVED only while it runs: from `date_until` on it reads EXPIRED.'),
  date_requested: z.string(),
  date_decided: z.string().nullable(),
  decided_by: z.string().nullable().describe('Who approved or denied it; "automatically" under the organization\'s setting.'),
  date_until: z.string().nullable().describe('The instant the access ends (set at approval).'),
  date_ended: z.string().nullable(),
  ended_by: z.string().nullable(),
  abilities: z.array(z.enum(['approve', 'deny', 'end'])).describe('What the caller may do to it now.'),
});
export type SupportRequest = z.infer<typeof supportRequestSchema>;

export const supportSettingsSchema = z.object({
  auto_approve: z.boolean().describe('Approve every request at once, up to `max_hours` (off by default).'),
  max_hours: z.number().int().min(1).max(SUPPORT_MAX_HOURS).describe(`The longest access approved automatically (1–${SUPPORT_MAX_HOURS} hours).`),
});
export type SupportSettings = z.infer<typeof supportSettingsSchema>;
export const DEFAULT_SUPPORT_SETTINGS: SupportSettings = { auto_approve: false, max_hours: 8 };

export const supportSettingsBodySchema = strictBody(supportSettingsSchema.shape);

export const supportListSchema = z.object({
  items: z.array(supportRequestSchema),
  settings: supportSettingsSchema,
  abilities: z.array(z.enum(['request', 'breakGlass', 'decide', 'list'])),
  /** The roles the caller may ask for here. */
  requestable_roles: z.array(z.enum(ROLES)),
});

export const supportRequestBodySchema = strictBody({
  role: z.enum(ROLES).default('MEMBER').describe('The role asked for: MEMBER (read only) by default, at most ADMINISTRATOR.'),
  reason: text().trim().min(1, 'must not be empty').max(1000),
  hours: z.number({ message: 'must be a whole number of hours' }).int('must be a whole number of hours')
    .min(1, `must be 1–${SUPPORT_MAX_HOURS} hours`).max(SUPPORT_MAX_HOURS, `must be 1–${SUPPORT_MAX_HOURS} hours`),
  break_glass: z.boolean().default(false).describe('Emergency access without consent: SUPERVISOR only, at most 4 hours, active at once.'),
});
export type SupportRequestBody = z.output<typeof supportRequestBodySchema>;

export { supportRequestSchema };

/** An access that runs now in an organization, for its banners (readable by everyone who reads the organization). */
const activeSupportSchema = z.object({
  request_id: z.number().int(),
  name: z.string(),
  role: z.enum(ROLES),
  break_glass: z.boolean(),
  date_until: z.string(),
  /** The caller is the support person of this access. */
  mine: z.boolean(),
  /** The caller may end it. */
  can_end: z.boolean(),
});
export type ActiveSupport = z.infer<typeof activeSupportSchema>;
export const activeSupportListSchema = z.object({ items: z.array(activeSupportSchema) });

/** The support person's own requests everywhere, and the organizations it may ask (the admin area's page). */
export const mySupportSchema = z.object({
  items: z.array(supportRequestSchema),
  organizations: z.array(z.object({ organization_id: z.string(), organization_name: z.string(), organization_role: z.string() })),
  requestable_roles: z.array(z.enum(ROLES)),
  break_glass: z.boolean().describe('The caller may take break-glass access.'),
});
