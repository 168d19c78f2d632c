/**
 * The access review (issue 33): every role assignment that counts now, with since, until and who granted it. An
 * auditor's quarterly question, per organization and across organizations (the admin area).
 */
import { z } from 'zod';
import { ROLES, SCOPES } from '../enums';
import { paging } from './lists';

const ACCESS_KINDS = ['STANDING', 'TIME_BOXED', 'SUPPORT'] as const;

export const accessReviewRowSchema = z.object({
  organization_id: z.string(),
  organization_name: z.string(),
  member_id: z.string(),
  member_email: z.string(),
  name: z.string(),
  role: z.enum(ROLES),
  scope: z.enum(SCOPES),
  /** When it was granted; null for assignments made before the portal recorded it (migration 0028). */
  since: z.string().nullable(),
  /** The instant from which it no longer counts; null: standing. */
  until: z.string().nullable(),
  /** The email of who granted it; null when unknown or nobody did (a sign-up through a trusted domain). */
  granted_by: z.string().nullable(),
  kind: z.enum(ACCESS_KINDS).describe('STANDING until taken away, TIME_BOXED: ends by itself at `until`, or SUPPORT: a vendor support access running until `until`.'),
  /** A support access's request number (its "#N"); null for a role. */
  support_request: z.number().int().nullable(),
  /** A support access taken by break glass, without the organization's consent. */
  break_glass: z.boolean(),
});
export type AccessReviewRow = z.infer<typeof accessReviewRowSchema>;

export const accessReviewQuery = z.object({
  kind: z.enum(ACCESS_KINDS).optional().describe('Only standing assignments, only time-boxed ones, or only the support accesses that run.'),
  ...paging,
});
export type AccessReviewQuery = z.infer<typeof accessReviewQuery>;
/** The CSV: the same rows under the same filter, every one. */
export const accessReviewExportQuery = accessReviewQuery.omit({ offset: true, limit: true });
export type AccessReviewExportQuery = z.infer<typeof accessReviewExportQuery>;
