import { z } from 'zod';
import { strictBody } from './body';
import { text } from './text';

/** The only group a token may carry today: the download gateway's export (SPEC.md §5). */
export const TOKEN_GROUPS = ['piston_export'] as const;

/**
 * POST /api/token (SPEC.md §3 "Token request"): expiry in days 1–730, default 365. `name` (issue 34) says
 * what the token is for in the list; optional, so the bodies existing clients send stay valid: without it the
 * token is named after its upn (docs/decisions.md "API tokens"). The web form requires it.
 */
export const tokenRequestSchema = strictBody({
  expires_in: z.number().int('must be a whole number of days').min(1, 'at least 1 day').max(730, 'at most 730 days').default(365),
  upn: text().trim().min(1, 'is required').max(200, 'at most 200 characters').regex(/^[^\s"\\]+$/, 'must be a user principal name without spaces or quotes'),
  groups: z.array(z.enum(TOKEN_GROUPS)).min(1, 'name at least one group').max(1),
  name: text().trim().min(1, 'is required').max(100, 'at most 100 characters').optional(),
});
export type TokenRequest = z.infer<typeof tokenRequestSchema>;

/** Where a token stands at the server's clock: revoked wins over expired. */
const TOKEN_STATUSES = ['active', 'expired', 'revoked'] as const;
export type TokenStatus = (typeof TOKEN_STATUSES)[number];

/** A recorded gateway token as GET /api/tokens lists it (never its text). */
export const apiTokenSchema = z.object({
  /** The token's jti, as the journal names it. */
  token_id: z.string(),
  name: z.string(),
  upn: z.string(),
  groups: z.array(z.string()),
  created_by: z.string(),
  date_created: z.string(),
  date_expires: z.string(),
  /** The last poll with it, written at most once a minute per instance; null if never used. */
  date_last_used: z.string().nullable(),
  date_revoked: z.string().nullable(),
  revoked_by: z.string().nullable(),
  status: z.enum(TOKEN_STATUSES),
  /** What the caller may do with it (common/policy.ts): token.revoke while it is not revoked yet. */
  abilities: z.array(z.enum(['token.revoke'])),
});
export type ApiToken = z.infer<typeof apiTokenSchema>;

export const apiTokenListSchema = z.object({ items: z.array(apiTokenSchema) });
