/**
 * GET /api/bulk/{certificates|licenses}/{action}/preview without filters: how many of the waiting
 * certificates or licenses (all the caller can read, in the state the action applies to) the caller
 * may act on, before "all waiting" is confirmed.
 */
import type { BulkPreview } from '../../../../../common/schemas/bulk';
import { api } from '../../../../lib/api';

export function previewPendingBulk(list: 'certificates' | 'licenses', action: string): Promise<BulkPreview> {
  return api<BulkPreview>(`/api/bulk/${list}/${action}/preview`);
}
