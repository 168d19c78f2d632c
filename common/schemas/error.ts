import { z } from 'zod';

/** The screens the web app goes to when an answer says so (SPEC.md §8). */
const REDIRECTS = ['Welcome', 'AuthWelcome', 'AccessError', 'NetworkError'] as const;
export type Redirect = (typeof REDIRECTS)[number];

/** The body of every error response (server/http/error-handler.ts); the OpenAPI document's `Error`. */
export const errorBodySchema = z.object({
  message: z.string().describe('What went wrong, for a person: the web app shows it as a notification.'),
  severity: z.enum(['ERROR', 'WARNING']).describe('WARNING for a conflict the person can resolve (409), ERROR otherwise.'),
  field: z.string().optional().describe('The input field a 400, or a 409 about a taken value, is about (`domains.3` is the fourth of `domains`).'),
  redirect: z.enum(REDIRECTS).optional().describe('The screen the web app should go to.'),
});
export type ErrorBody = z.output<typeof errorBodySchema>;
