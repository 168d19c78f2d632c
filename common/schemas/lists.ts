import { z } from 'zod';
import { CERTIFICATE_SORTS, LICENSE_SORTS, type SortOf } from '../sorts';
import { CERTIFICATE_STATUS_FILTERS, EXPIRING_MAX_DAYS, LICENSE_STATUS_FILTERS } from '../status-filters';
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


/** The `sort` parameter of a list whose allowed fields are `columns`; without it, the list's usual order. */
export function sortParam<const C extends string>(columns: readonly [C, ...C[]]) {
  const values = columns.flatMap((column) => [column, `-${column}`]) as [SortOf<C>, ...SortOf<C>[]];
  return z
    .enum(values)
    .optional()
    .describe(`The order: ${columns.join(', ')} ascending, or with a leading - descending; ties go by the row's key. Without it, the list's usual order.`);
}


export type CertificateSort = SortOf<(typeof CERTIFICATE_SORTS)[number]>;

export type LicenseSort = SortOf<(typeof LICENSE_SORTS)[number]>;

/**
 * `status=approved,expired`: the status chips (common/status-filters.ts), comma-separated, in the
 * canonical order once parsed (so one choice is one key of the kept pages), without duplicates.
 */
function statusParam<const S extends string>(statuses: readonly [S, ...S[]]) {
  return z
    .string()
    .max(300)
    .optional()
    .transform((value, ctx): S[] | undefined => {
      const asked = (value ?? '').split(',').map((s) => s.trim()).filter(Boolean);
      const unknown = asked.find((s) => !(statuses as readonly string[]).includes(s));
      if (unknown !== undefined) {
        ctx.addIssue({ code: 'custom', message: `Unknown status '${unknown.slice(0, 40)}': use ${statuses.join(', ')}.` });
        return z.NEVER;
      }
      const chosen = statuses.filter((s) => asked.includes(s));
      return chosen.length ? chosen : undefined;
    })
    .describe(`Only rows with these statuses, comma-separated (${statuses.join(', ')}): statuses of one group are alternatives, groups narrow each other (docs/decisions.md "Status filters").`);
}

/** An instant, ISO 8601 with a zone; kept as `toISOString()` text, the form the columns hold. */
const instant = z.iso
  .datetime({ offset: true })
  .transform((value) => new Date(value).toISOString())
  .optional();

/** The filters the certificate and license lists share (SPEC.md §7, and issue 12's). */
const statusFilters = {
  name: text().max(500).optional(),
  hideExpired: flag,
  hideRequests: flag,
  hideValid: flag,
  expiringWithin: z.coerce
    .number()
    .int()
    .min(1)
    .max(EXPIRING_MAX_DAYS)
    .optional()
    .describe('Only rows not yet expired whose end of validity is at most this many days (of 24 hours) from now.'),
  untilFrom: instant.describe('Only rows whose end of validity (not-after, valid-until) is at or after this instant.'),
  untilBefore: instant.describe('Only rows whose end of validity is before this instant.'),
  ...paging,
};

export const certificateListQuery = z.object({ ...statusFilters, status: statusParam(CERTIFICATE_STATUS_FILTERS), sort: sortParam(CERTIFICATE_SORTS) });
export type CertificateListQuery = z.infer<typeof certificateListQuery>;
/** GET .../certificates.csv: the list's filters and order; the export holds every row, so no paging. */
export const certificateExportQuery = certificateListQuery.omit({ offset: true, limit: true });
export type CertificateExportQuery = z.infer<typeof certificateExportQuery>;

export const licenseListQuery = z.object({ ...statusFilters, status: statusParam(LICENSE_STATUS_FILTERS), sort: sortParam(LICENSE_SORTS) });
export type LicenseListQuery = z.infer<typeof licenseListQuery>;
/** GET .../licenses.csv: the list's filters and order, every row. */
export const licenseExportQuery = licenseListQuery.omit({ offset: true, limit: true });
export type LicenseExportQuery = z.infer<typeof licenseExportQuery>;

