import { z } from 'zod';

/** GET /api/admin/state (SPEC.md §7). */
export const adminStateSchema = z.object({
  secret_provided: z.boolean(),
});
export type AdminState = z.infer<typeof adminStateSchema>;

export const MASTER_SECRET_MIN_LENGTH = 16;
export const MASTER_SECRET_MAX_LENGTH = 1024;

/** Characters as people count them: code points, so an emoji is one, not two UTF-16 units. */
const characters = (text: string) => [...text].length;

/**
 * The master secret (DECISIONS.md "Master secret"), POST /api/admin/mastersecret's text body or
 * MASTER_SECRET_FILE: surrounding whitespace dropped (a file or a pasted text often ends with a
 * newline), then 16–1024 characters. The server's service checks it (a 400 with field `secret`,
 * the message after "The secret"); the Provide Secret form checks it before sending.
 */
export const masterSecretSchema = z
  .string()
  .trim()
  .refine((text) => characters(text) >= MASTER_SECRET_MIN_LENGTH, `must have at least ${MASTER_SECRET_MIN_LENGTH} characters`)
  .refine((text) => characters(text) <= MASTER_SECRET_MAX_LENGTH, `may have at most ${MASTER_SECRET_MAX_LENGTH} characters`);
