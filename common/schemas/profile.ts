import { z } from 'zod';
import { ORGANIZATION_ROLES, ROLES, SCOPES } from '../enums';
import { GLOBAL_ACTION_NAMES } from '../policy';

const assignmentSchema = z.object({
  organization_id: z.string(),
  organization_role: z.enum(ORGANIZATION_ROLES),
  role: z.enum(ROLES),
  scope: z.enum(SCOPES),
});

/** GET /api/auth/callback: the member profile (SPEC.md §3 "User/profile"). */
export const profileSchema = z.object({
  name: z.string(),
  email: z.string(),
  member_id: z.string(),
  organization_id: z.string(),
  organization_name: z.string(),
  organization_role: z.enum(ORGANIZATION_ROLES),
  roles: z.array(assignmentSchema),
  /** The global actions the caller may take (common/policy.ts GLOBAL_ACTIONS), e.g. approval.review. */
  abilities: z.array(z.enum(GLOBAL_ACTION_NAMES)),
});
export type Profile = z.infer<typeof profileSchema>;

/** GET /api/config: what the web app needs to start the sign-in. */
export const clientSettingsSchema = z.object({
  authority: z.string(),
  client_id: z.string(),
  scope: z.string(),
  audience: z.string(),
});
export type ClientSettings = z.infer<typeof clientSettingsSchema>;
