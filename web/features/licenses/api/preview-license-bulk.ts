/** GET /api/bulk/licenses/{action}/preview: how many licenses match the list's filters, and how many the action would act on. */
import type { BulkPreview, LicenseBulkAction } from '../../../../common/schemas/bulk';
import { api } from '../../../lib/api';

export function previewLicenseBulk(action: LicenseBulkAction, match: Record<string, string>): Promise<BulkPreview> {
  return api<BulkPreview>(`/api/bulk/licenses/${action}/preview`, { query: match });
}
