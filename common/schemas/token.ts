import { z } from 'zod';
import { strictBody } from './body';
import { text } from './text';

/** The only group a token may carry today: the download gateway's export (SPEC.md §5). */
export const TOKEN_GROUPS = ['piston_export'] as const;

/** POST /api/token (SPEC.md §3 "Token request"): expiry in days 1–730, default 365. */
export const tokenRequestSchema = strictBody({
  expires_in: z.number().int('must be a whole number of days').min(1, 'at least 1 day').max(730, 'at most 730 days').default(365),
  upn: text().trim().min(1, 'is required').max(200, 'at most 200 characters').regex(/^[^\s"\\]+$/, 'must be a user principal name without spaces or quotes'),
  groups: z.array(z.enum(TOKEN_GROUPS)).min(1, 'name at least one group').max(1),
});
export type TokenRequest = z.infer<typeof tokenRequestSchema>;
