import { z } from 'zod';

/** GET /api/admin/state (SPEC.md §7). */
export const adminStateSchema = z.object({
  secret_provided: z.boolean(),
});
export type AdminState = z.infer<typeof adminStateSchema>;
