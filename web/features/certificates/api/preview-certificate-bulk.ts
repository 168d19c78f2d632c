/** GET /api/bulk/certificates/{action}/preview: how many certificates match the list's filters, and how many the action would act on. */
import type { BulkPreview, CertificateBulkAction } from '../../../../common/schemas/bulk';
import { api } from '../../../lib/api';

export function previewCertificateBulk(action: CertificateBulkAction, match: Record<string, string>): Promise<BulkPreview> {
  return api<BulkPreview>(`/api/bulk/certificates/${action}/preview`, { query: match });
}
