import { z } from 'zod';
import { CERTIFICATE_SORTS, LICENSE_SORTS, type SortOf } from '../sorts';
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

/** The filters the certificate and license lists share (SPEC.md §7). */
const statusFilters = {
  name: text().max(500).optional(),
  hideExpired: flag,
  hideRequests: flag,
  hideValid: flag,
  ...paging,
};

export const certificateListQuery = z.object({ ...statusFilters, sort: sortParam(CERTIFICATE_SORTS) });
export type CertificateListQuery = z.infer<typeof certificateListQuery>;
/** GET .../certificates.csv: the list's filters and order; the export holds every row, so no paging. */
export const certificateExportQuery = certificateListQuery.omit({ offset: true, limit: true });
export type CertificateExportQuery = z.infer<typeof certificateExportQuery>;

export const licenseListQuery = z.object({ ...statusFilters, sort: sortParam(LICENSE_SORTS) });
export type LicenseListQuery = z.infer<typeof licenseListQuery>;
/** GET .../licenses.csv: the list's filters and order, every row. */
export const licenseExportQuery = licenseListQuery.omit({ offset: true, limit: true });
export type LicenseExportQuery = z.infer<typeof licenseExportQuery>;

/** What the certificate and license lists share. */
export type StatusListQuery = Omit<CertificateListQuery, 'sort'>;
