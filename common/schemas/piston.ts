import { z } from 'zod';

// file_name: the certificate's file in the archive, null when the archive does not hold it.
const latest = z.object({ file_name: z.string().nullable(), distinguished_name: z.string(), date_modified: z.string() }).nullable();

/** GET /api/piston/statistics (SPEC.md §3 "Piston statistics"). */
export const pistonStatisticsSchema = z.object({
  routes: z.object({ etag: z.string() }),
  certs: z.object({ etag: z.string() }),
  organizations: z.array(
    z.object({
      organization_id: z.string(),
      organization_name: z.string(),
      cert_unapproved: z.number().int(),
      latest: z.object({ upload: latest, valid: latest, approve: latest, revoke: latest, expired: latest }),
    }),
  ),
});
export type PistonStatistics = z.infer<typeof pistonStatisticsSchema>;
