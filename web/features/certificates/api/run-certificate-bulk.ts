/**
 * POST /api/bulk/certificates/{action}: approve, revoke or acknowledge the expiry of up to 1,000
 * certificates, each as its single call; the answer says per certificate what happened. Afterwards
 * every certificate query is stale, as after a single action.
 */
import { useCallback } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { CertificateBulkAction, CertificateBulkResult } from '../../../../common/schemas/bulk';
import { api } from '../../../lib/api';
import type { BulkBody } from '../../../components/bulk/run-bulk';
import { certificateKeys } from './keys';

export function runCertificateBulk(action: CertificateBulkAction, body: BulkBody): Promise<CertificateBulkResult> {
  return api<CertificateBulkResult>(`/api/bulk/certificates/${action}`, { method: 'POST', body });
}

/** What the lists read again after a run. */
export function useCertificatesChanged() {
  const queryClient = useQueryClient();
  return useCallback(() => void queryClient.invalidateQueries({ queryKey: certificateKeys.all }), [queryClient]);
}
