/**
 * Bulk actions' constants (docs/decisions.md "Bulk actions"), plain so the web app's first screens
 * import them without zod; common/schemas/bulk.ts builds the API's schemas from them.
 */

/** The most items one request acts on. */
export const BULK_LIMIT = 1000;

export const CERTIFICATE_BULK_ACTIONS = ['approve', 'revoke', 'acknowledge-expiry'] as const;
export type CertificateBulkAction = (typeof CERTIFICATE_BULK_ACTIONS)[number];
export const LICENSE_BULK_ACTIONS = ['approve', 'reject', 'acknowledge-expiry'] as const;
export type LicenseBulkAction = (typeof LICENSE_BULK_ACTIONS)[number];
