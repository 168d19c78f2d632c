/**
 * POST /api/bulk/licenses/{action}: approve (as requested), reject or acknowledge the expiry of up
 * to 1,000 licenses, each as its single call (with the version the screen showed); the answer says
 * per license what happened. Afterwards every license query is stale, as after a single action.
 */
import { useCallback } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { LicenseBulkAction, LicenseBulkResult } from '../../../../common/schemas/bulk';
import { api } from '../../../lib/api';
import type { BulkBody } from '../../../components/bulk/run-bulk';
import { licenseKeys } from './keys';

export function runLicenseBulk(action: LicenseBulkAction, body: BulkBody): Promise<LicenseBulkResult> {
  return api<LicenseBulkResult>(`/api/bulk/licenses/${action}`, { method: 'POST', body });
}

/** What the lists read again after a run. */
export function useLicensesChanged() {
  const queryClient = useQueryClient();
  return useCallback(() => void queryClient.invalidateQueries({ queryKey: licenseKeys.all }), [queryClient]);
}
