/**
 * POST /api/licenses/{id}/approve: the body is the license as the approver edited it (name,
 * scope, valid from, days, note are applied) with the `version` they saw; 200 with the license.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { License } from '../../../../common/schemas/license';
import { api } from '../../../lib/api';
import { licensePath } from './keys';
import { refetchAfterConflict, storeChanged } from './invalidate';

function approveLicense(license: License): Promise<License> {
  return api<License>(`${licensePath(license.license_id)}/approve`, { method: 'POST', body: license });
}

export function useApproveLicense() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: approveLicense,
    onSuccess: (license) => storeChanged(queryClient, license),
    onError: (error, license) => refetchAfterConflict(queryClient, license.license_id, error),
  });
}
