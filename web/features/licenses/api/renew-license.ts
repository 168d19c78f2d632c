/**
 * POST /api/licenses/{id}/renew?version=&time_zone=&today=: makes the successor (Not approved) and
 * answers it with 201; the original then shows Extension requested until the successor is approved.
 * `today` is the viewer's local midnight and `time_zone` the viewer's zone, so the successor starts on
 * the viewer's day and its days are calendar days there.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { startOfLocalDay } from '../../../../common/dates';
import type { License } from '../../../../common/schemas/license';
import { localTimeZone } from '../../../../common/zones';
import { api } from '../../../lib/api';
import { licenseKeys, licensePath, type LicenseRef } from './keys';
import { refetchAfterConflict } from './invalidate';

function renewLicense({ licenseId, version }: LicenseRef): Promise<License> {
  const zone = localTimeZone();
  const today = startOfLocalDay(new Date()).toISOString();
  return api<License>(`${licensePath(licenseId)}/renew`, { method: 'POST', query: { version, today, ...(zone ? { time_zone: zone } : {}) } });
}

export function useRenewLicense() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: renewLicense,
    onSuccess: (successor) => {
      queryClient.setQueryData(licenseKeys.detail(successor.license_id), successor);
      // The original's row changed too (its extended_by and version).
      return queryClient.invalidateQueries({
        queryKey: licenseKeys.all,
        predicate: (query) => query.queryKey[2] !== successor.license_id,
      });
    },
    onError: (error, ref) => refetchAfterConflict(queryClient, ref.licenseId, error),
  });
}
