/**
 * POST /api/bulk/{certificates|licenses}/{action}: the pending tasks' bulk approvals, rejections and
 * acknowledgements, each item as its single call, answered per item. Afterwards the pending lists
 * and the certificate and license lists (their features' query roots) are read again.
 */
import { useCallback } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { CertificateBulkResult, LicenseBulkResult } from '../../../../../common/schemas/bulk';
import { api } from '../../../../lib/api';
import type { BulkBody } from '../../../../components/bulk/run-bulk';

export type PendingBulkResult = CertificateBulkResult | LicenseBulkResult;

export function runPendingBulk(list: 'certificates' | 'licenses', action: string, body: BulkBody): Promise<PendingBulkResult> {
  return api<PendingBulkResult>(`/api/bulk/${list}/${action}`, { method: 'POST', body });
}

export function usePendingChanged(list: 'certificates' | 'licenses') {
  const queryClient = useQueryClient();
  return useCallback(() => {
    void queryClient.invalidateQueries({ queryKey: ['pending'] });
    // The feature's query root (features/certificates|licenses api/keys.ts): its lists show the new states.
    void queryClient.invalidateQueries({ queryKey: [list] });
  }, [queryClient, list]);
}
