/** POST /api/licenses/{id}/acknowledge-expiry?version=: 'No renew' for an expired license; 200 with it. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { License } from '../../../../common/schemas/license';
import { api } from '../../../lib/api';
import { licensePath, type LicenseRef } from './keys';
import { refetchAfterConflict, storeChanged } from './invalidate';

function acknowledgeLicenseExpiry({ licenseId, version }: LicenseRef): Promise<License> {
  return api<License>(`${licensePath(licenseId)}/acknowledge-expiry`, { method: 'POST', query: { version } });
}

export function useAcknowledgeLicenseExpiry() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: acknowledgeLicenseExpiry,
    onSuccess: (license) => storeChanged(queryClient, license),
    onError: (error, ref) => refetchAfterConflict(queryClient, ref.licenseId, error),
  });
}
