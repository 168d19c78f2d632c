/** Organization API keys (issue 32): the API's bodies, shared with the web forms. */
import { z } from 'zod';
import { ROLES, SCOPES } from '../enums';
import { text } from './text';
import { strictBody } from './body';

/** Expiry at most this far ahead (issue 32: "at most 365 days ahead"). */
export const MAX_KEY_DAYS = 365;
/** The presets of the form's expiry. */
export const KEY_EXPIRY_PRESETS = [30, 90, 365] as const;

const apiKeyRoleSchema = z.object({ role: z.enum(ROLES), scope: z.enum(SCOPES) });
export type ApiKeyRole = z.infer<typeof apiKeyRoleSchema>;

const apiKeySchema = z.object({
  api_key_id: z.string(),
  organization_id: z.string(),
  organization_name: z.string(),
  name: z.string(),
  roles: z.array(apiKeyRoleSchema),
  read_only: z.boolean(),
  date_created: z.string(),
  created_by: z.object({ name: z.string(), email: z.string() }),
  date_expires: z.string(),
  date_last_used: z.string().nullable(),
  /** The client address of the last use (as the portal sees it: TRUST_PROXY decides whether X-Forwarded-For counts). */
  last_used_from: z.string().nullable(),
  date_revoked: z.string().nullable(),
});
export type ApiKey = z.infer<typeof apiKeySchema>;

const unique = (roles: ApiKeyRole[]) => new Set(roles.map((r) => r.role)).size === roles.length;

/** POST's body. The expiry's window (future, at most 365 days) is the server's to check against its clock. */
export const apiKeyBodySchema = strictBody({
  name: text().trim().min(1, 'must not be empty').max(100),
  roles: z.array(apiKeyRoleSchema).min(1, 'choose at least one role').max(ROLES.length).refine(unique, 'must not repeat a role'),
  date_expires: z.iso.datetime({ offset: true, message: 'must be an ISO 8601 date and time' }),
  read_only: z.boolean().default(false),
});
export type ApiKeyBody = z.output<typeof apiKeyBodySchema>;

export const apiKeyListSchema = z.object({ items: z.array(apiKeySchema) });

/** The answer of creating a key: its fields and the secret (`cpk_…`), shown this once. */
export const apiKeySecretSchema = apiKeySchema.extend({ secret: z.string() });
