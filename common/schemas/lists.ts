import { z } from 'zod';
import { text } from './text';

/** A query-string flag: `true`/`1` mean on, anything else (or absent) off. */
const flag = z
  .enum(['true', 'false', '1', '0', ''])
  .optional()
  .transform((v) => v === 'true' || v === '1');

/** Paging of every list (ARCHITECTURE.md): default 100, at most 1000; the total goes in X-Total-Count. */
export const paging = {
  offset: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
};

/** The filters the certificate and license lists share (SPEC.md §7). */
export const statusListQuery = z.object({
  name: text().max(500).optional(),
  hideExpired: flag,
  hideRequests: flag,
  hideValid: flag,
  ...paging,
});
export type StatusListQuery = z.infer<typeof statusListQuery>;
