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

/**
 * A list's order (docs/decisions.md "Sorting"): `sort=<field>` ascending, `sort=-<field>` descending
 * (JSON:API), a field of the rows as the API returns them. The descending order is the ascending one
 * reversed, its tie-break on the row's key included, so either reads one index in one direction.
 */
export type SortOf<C extends string> = C | `-${C}`;

/** The `sort` parameter of a list whose allowed fields are `columns`; without it, the list's usual order. */
export function sortParam<const C extends string>(columns: readonly [C, ...C[]]) {
  const values = columns.flatMap((column) => [column, `-${column}`]) as [SortOf<C>, ...SortOf<C>[]];
  return z
    .enum(values)
    .optional()
    .describe(`The order: ${columns.join(', ')} ascending, or with a leading - descending; ties go by the row's key. Without it, the list's usual order.`);
}

/** The field a sort names and its direction. */
export function sortColumn<C extends string>(sort: SortOf<C>): { column: C; descending: boolean } {
  return sort.startsWith('-') ? { column: sort.slice(1) as C, descending: true } : { column: sort as C, descending: false };
}

/** The fields the certificate lists sort by: what can be served by an index (a status is computed, so it is not one). */
export const CERTIFICATE_SORTS = ['distinguished_name', 'date_not_before', 'date_not_after', 'date_created', 'organization_name'] as const;
export type CertificateSort = SortOf<(typeof CERTIFICATE_SORTS)[number]>;

/** The fields the license lists sort by (days left is the end of validity seen from today). */
export const LICENSE_SORTS = ['license_name', 'date_valid_from', 'date_valid_until', 'date_created', 'organization_name'] as const;
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

export const licenseListQuery = z.object({ ...statusFilters, sort: sortParam(LICENSE_SORTS) });
export type LicenseListQuery = z.infer<typeof licenseListQuery>;

/** What the certificate and license lists share. */
export type StatusListQuery = Omit<CertificateListQuery, 'sort'>;
