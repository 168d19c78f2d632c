import { z } from 'zod';
import { certificateSummarySchema } from './certificate';
import { licenseSchema } from './license';

/** GET /api/approve and GET /api/acknowledge: what waits for someone, per kind of record. */
export const pendingSchema = z.object({
  certificates: z.array(certificateSummarySchema),
  licenses: z.array(licenseSchema),
});
export type Pending = z.infer<typeof pendingSchema>;
