/**
 * The orders each list may be asked for (docs/decisions.md "Sorting"): `sort=<field>` ascending,
 * `sort=-<field>` descending (JSON:API), a field of the rows as the API returns them. The descending
 * order is the ascending one reversed, its tie-break on the row's key included, so either reads one
 * index in one direction. Plain constants, without zod: the web app's first screen imports them (zod
 * stays out of it), and common/schemas makes the API's `sort` parameters of them.
 */
export type SortOf<C extends string> = C | `-${C}`;

/** The field a sort names and its direction. */
export function sortColumn<C extends string>(sort: SortOf<C>): { column: C; descending: boolean } {
  return sort.startsWith('-') ? { column: sort.slice(1) as C, descending: true } : { column: sort as C, descending: false };
}

/** The fields the certificate lists sort by: what can be served by an index (a status is computed, so it is not one). */
export const CERTIFICATE_SORTS = ['distinguished_name', 'date_not_before', 'date_not_after', 'date_created', 'organization_name'] as const;

/** The fields the license lists sort by (days left is the end of validity seen from today). */
export const LICENSE_SORTS = ['license_name', 'date_valid_from', 'date_valid_until', 'date_created', 'organization_name'] as const;

/** The fields the member lists sort by: name (then email), email, organization (then name and email). */
export const MEMBER_SORTS = ['name', 'member_email', 'organization_name'] as const;

/** The field the organization list sorts by: the name (unique, so the order is total). */
export const ORGANIZATION_SORTS = ['organization_name'] as const;

/**
 * The journal sorts by time only: its records are numbered as they are written, and that order is
 * read by key (docs/decisions.md "Journal pages by key") in either direction. Newest first without it.
 */
export const JOURNAL_SORTS = ['date_created'] as const;

/** The fields the resource lists sort by: the ordinal (the gateway's order, the default) or the name, then the ordinal. */
export const RESOURCE_SORTS = ['ordinal', 'resource_name'] as const;

/** The fields each pending list sorts by (docs/decisions.md "Sorting"): those its table shows, but the organization. */
export const PENDING_CERTIFICATE_SORTS = ['distinguished_name', 'date_not_before', 'date_not_after', 'date_created'] as const;

export const PENDING_LICENSE_SORTS = ['license_name', 'date_valid_from', 'date_valid_until', 'date_created'] as const;
