/** POST /api/licenses/{id}/reject?version=: a rejection is final; 200 with the license. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { License } from '../../../../common/schemas/license';
import { api } from '../../../lib/api';
import { licensePath, type LicenseRef } from './keys';
import { refetchAfterConflict, storeChanged } from './invalidate';

function rejectLicense({ licenseId, version }: LicenseRef): Promise<License> {
  return api<License>(`${licensePath(licenseId)}/reject`, { method: 'POST', query: { version } });
}

export function useRejectLicense() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: rejectLicense,
    onSuccess: (license) => storeChanged(queryClient, license),
    onError: (error, ref) => refetchAfterConflict(queryClient, ref.licenseId, error),
  });
}
