import { z } from 'zod';
import { abilitiesOf } from './abilities';
import { strictBody } from './body';
import { ROLES, SCOPES } from '../enums';
import { INVITATION_STATUSES } from '../invitations';
import { paging } from './lists';
import { text } from './text';

/** An invitation to join an organization (issue 34 item 2). Dates are ISO-8601 UTC; `status` comes from them and now. */
export const invitationSchema = z.object({
  invitation_id: z.string(),
  organization_id: z.string(),
  email: z.string(),
  role: z.enum(ROLES),
  scope: z.enum(SCOPES),
  status: z.enum(INVITATION_STATUSES),
  /** Who invited (or last resent); null when that member is gone from the record. */
  invited_by: z.string().nullable(),
  date_created: z.string(),
  date_sent: z.string(),
  date_expires: z.string(),
  date_accepted: z.string().nullable(),
  date_revoked: z.string().nullable(),
  abilities: abilitiesOf('invitation'),
});
export type Invitation = z.infer<typeof invitationSchema>;

/** POST .../invitations: the address (any case; kept lower-case, as sign-in compares it) and the role it grants. */
export const invitationCreateSchema = strictBody({
  email: text()
    .trim()
    .toLowerCase()
    .max(320, 'at most 320 characters')
    .regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, 'an email address such as name@example.com'),
  role: z.enum(ROLES),
  scope: z.enum(SCOPES),
});
export type InvitationCreate = z.output<typeof invitationCreateSchema>;

/** GET .../invitations: newest first; `open` (the default) leaves out the accepted and revoked ones. */
export const invitationListQuery = z.object({
  status: z.enum(['open', 'all']).default('open'),
  ...paging,
});
export type InvitationListQuery = z.output<typeof invitationListQuery>;
