import { z } from 'zod';
import { certificateSummarySchema } from './certificate';
import { licenseSchema } from './license';
import { sortParam } from './lists';
import { PENDING_CERTIFICATE_SORTS, PENDING_LICENSE_SORTS, type SortOf } from '../sorts';

/** Rows per list on one page, as every list (ARCHITECTURE.md "Performance principles"). */
export const PENDING_PAGE_SIZE = 100;
const PENDING_MAX_LIMIT = 1000;

/**
 * A position in a list in decimal digits: a number coerced from text would take `offset=` for 0
 * and `0x10` for 16 (docs/decisions.md "Pending tasks").
 */
const offset = (list: string) =>
  z
    .string()
    .regex(/^\d{1,15}$/, `a whole number of 0 or more: how many ${list} to skip`)
    .transform(Number)
    .default(0)
    .describe(`How many ${list} to skip (default 0).`);

/**
 * GET /api/approve and GET /api/acknowledge: one page of each list. Both lists share the page size;
 * each has its own offset, so a screen pages one list and keeps the other where it is. Unknown
 * parameters are refused: a misspelled offset read as 0 would show the first page as if it were
 * the one asked for.
 */
export type PendingCertificateSort = SortOf<(typeof PENDING_CERTIFICATE_SORTS)[number]>;
export type PendingLicenseSort = SortOf<(typeof PENDING_LICENSE_SORTS)[number]>;

export const pendingQuery = z.strictObject({
  certificatesOffset: offset('certificates'),
  licensesOffset: offset('licenses'),
  certificatesSort: sortParam(PENDING_CERTIFICATE_SORTS),
  licensesSort: sortParam(PENDING_LICENSE_SORTS),
  limit: z
    .string()
    .regex(/^0*(?:[1-9]\d{0,2}|1000)$/, `a whole number from 1 to ${PENDING_MAX_LIMIT}`)
    .transform(Number)
    .default(PENDING_PAGE_SIZE)
    .describe(`Rows per list (default ${PENDING_PAGE_SIZE}, at most ${PENDING_MAX_LIMIT}).`),
});
export type PendingQuery = z.output<typeof pendingQuery>;

/**
 * What waits for someone, per kind of record: one page of each list, oldest task first, and how
 * many there are in all. A caller without parameters gets the first page of each.
 */
export const pendingSchema = z.object({
  certificates: z.array(certificateSummarySchema).describe('One page of the waiting certificates.'),
  certificates_total: z.number().int().describe('How many certificates wait, on every page.'),
  licenses: z.array(licenseSchema).describe('One page of the waiting licenses.'),
  licenses_total: z.number().int().describe('How many licenses wait, on every page.'),
});
export type Pending = z.infer<typeof pendingSchema>;

/**
 * The pending lists' CSV exports (GET /api/approve/certificates.csv and the three others): one list
 * each, every row, in the order of `sort` (the list's `certificatesSort` or `licensesSort`). Unknown
 * parameters are refused as the JSON lists refuse them.
 */
export const pendingCertificateExportQuery = z.strictObject({ sort: sortParam(PENDING_CERTIFICATE_SORTS) });
export const pendingLicenseExportQuery = z.strictObject({ sort: sortParam(PENDING_LICENSE_SORTS) });
