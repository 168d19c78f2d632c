/**
 * Bulk actions on certificates and licenses (issue 12 item 4; docs/decisions.md "Bulk actions"). A
 * request names its items either as a list of keys (at most BULK_LIMIT) or as "all that match" a
 * list's filters (`match`, the filters of the list's CSV export as JSON, plus the organization of
 * one organization's list), of which it acts on up to BULK_LIMIT per call. Each item is authorized,
 * changed and journaled as the single call would; the answer says per item what happened.
 */
import { z } from 'zod';
import { strictBody } from './body';
import { certificateExportQuery, licenseExportQuery } from './lists';
import { idText } from './text';
import { BULK_LIMIT, CERTIFICATE_BULK_ACTIONS, LICENSE_BULK_ACTIONS } from '../bulk';

export { BULK_LIMIT };
export type { CertificateBulkAction, LicenseBulkAction } from '../bulk';

export const certificateBulkParams = z.object({ action: z.enum(CERTIFICATE_BULK_ACTIONS) });
export const licenseBulkParams = z.object({ action: z.enum(LICENSE_BULK_ACTIONS) });

const organizationId = idText().optional().describe("One organization's list; without it, the admin list across the organizations the caller can read.");

/**
 * `match`: the list's own query, as its CSV export takes it (the same strings as in the URL: `"true"`
 * for a toggle), so "all that match" means exactly the rows the list shows under it; unknown keys refused.
 */
const MATCH = "All rows that match the list's query (and that the action can still apply to), in the list's order.";
const certificateMatch = z.strictObject({ ...certificateExportQuery.shape, organization_id: organizationId }).describe(MATCH);
const licenseMatch = z.strictObject({ ...licenseExportQuery.shape, organization_id: organizationId }).describe(MATCH);

const limit = z.number().int().min(1).max(BULK_LIMIT).optional()
  .describe(`With match: act on at most this many (default and most ${BULK_LIMIT}); the screen sends the count it showed.`);

type Shape = z.ZodRawShape & { items: z.ZodOptional<z.ZodArray<z.ZodType>>; match: z.ZodOptional<z.ZodType> };

/** Exactly one of `items` and `match`; no item twice (it would only be refused the second time). */
function bulkBody<S extends Shape>(shape: S, keyOf: (item: never) => string) {
  return strictBody(shape).superRefine((body, ctx) => {
    const { items, match } = body as { items?: unknown[]; match?: unknown };
    if ((items === undefined) === (match === undefined)) {
      ctx.addIssue({ code: 'custom', path: ['items'], message: 'send either items (a list of keys) or match (the list\'s filters), one of them' });
      return;
    }
    const seen = new Map<string, number>();
    items?.forEach((item, i) => {
      const key = keyOf(item as never);
      if (seen.has(key)) ctx.addIssue({ code: 'custom', path: ['items', i], message: `repeats item ${seen.get(key)}` });
      else seen.set(key, i);
    });
    if (items && (body as { limit?: number }).limit !== undefined) ctx.addIssue({ code: 'custom', path: ['limit'], message: 'limit goes with match only' });
  });
}

const certificateKey = z.strictObject({ organization_id: idText(), distinguished_name: idText(4096) });
export type CertificateKey = z.infer<typeof certificateKey>;

/** POST /api/bulk/certificates/{action}. */
export const certificateBulkBody = bulkBody({
  items: z.array(certificateKey).min(1).max(BULK_LIMIT).optional().describe(`Up to ${BULK_LIMIT} certificates by organization and DN.`),
  match: certificateMatch.optional(),
  limit,
}, (item: CertificateKey) => item.distinguished_name);
export type CertificateBulkBody = z.output<typeof certificateBulkBody>;

const licenseKey = z.strictObject({
  license_id: idText(),
  version: z.number().int().min(0).optional().describe('The version the caller saw: a license changed since is refused (409). Without it, the version read when the item is processed.'),
});
export type LicenseKey = z.infer<typeof licenseKey>;

/** POST /api/bulk/licenses/{action}. */
export const licenseBulkBody = bulkBody({
  items: z.array(licenseKey).min(1).max(BULK_LIMIT).optional().describe(`Up to ${BULK_LIMIT} licenses by id (with the version seen).`),
  match: licenseMatch.optional(),
  limit,
}, (item: LicenseKey) => item.license_id);
export type LicenseBulkBody = z.output<typeof licenseBulkBody>;

/** GET …/bulk/{action}/preview: the list's own query (as the CSV export takes it) and the organization. */
export const certificateBulkPreviewQuery = certificateExportQuery.extend({ organization_id: organizationId });
export const licenseBulkPreviewQuery = licenseExportQuery.extend({ organization_id: organizationId });

/** How many rows match the filters, and how many of them the action can apply to and the caller may act on. */
export const bulkPreviewSchema = z.object({
  matching: z.number().int().describe('Rows of the list under these filters.'),
  actionable: z.number().int().describe('Of those, the ones in a state the action applies to, in organizations where the caller may take it.'),
  limit: z.number().int().describe('The most one request acts on.'),
});
export type BulkPreview = z.infer<typeof bulkPreviewSchema>;

const outcome = {
  outcome: z.enum(['done', 'refused', 'failed']).describe('done: changed and journaled; refused: the single call would have been refused (status, message); failed: a server error, nothing changed.'),
  status: z.number().int().describe('The status the single call would have answered: 200, or 403, 404, 409 (500 for failed).'),
  message: z.string(),
};

function resultOf<K extends z.ZodRawShape>(key: K) {
  return z.object({
    done: z.number().int(),
    refused: z.number().int(),
    failed: z.number().int(),
    results: z.array(z.object({ ...key, ...outcome })),
    remaining: z.number().int().nullable().describe('With match: how many still match and can be acted on after this request (send it again for the next ones); null with items.'),
  });
}

export const certificateBulkResultSchema = resultOf({ organization_id: z.string(), distinguished_name: z.string() });
export type CertificateBulkResult = z.infer<typeof certificateBulkResultSchema>;
export const licenseBulkResultSchema = resultOf({ license_id: z.string(), license_name: z.string().nullable() });
export type LicenseBulkResult = z.infer<typeof licenseBulkResultSchema>;
