/**
 * What a license change leaves behind in the cache. A stale version (409) means someone else
 * changed the license meanwhile: its details are fetched again, so the screen shows what the
 * server holds and the person can decide again on current data.
 */
import type { QueryClient } from '@tanstack/react-query';
import type { License } from '../../../../common/schemas/license';
import { ApiError } from '../../../lib/api';
import { licenseKeys } from './keys';

/** After a change: the answer is the license as it is now; everything else may have moved. */
export function storeChanged(queryClient: QueryClient, license: License) {
  queryClient.setQueryData(licenseKeys.detail(license.license_id), license);
  return queryClient.invalidateQueries({
    queryKey: licenseKeys.all,
    predicate: (query) => query.queryKey[2] !== license.license_id || query.queryKey[1] !== 'detail',
  });
}

export function refetchAfterConflict(queryClient: QueryClient, licenseId: string, error: unknown) {
  if (error instanceof ApiError && error.status === 409) {
    return queryClient.invalidateQueries({ queryKey: licenseKeys.detail(licenseId) });
  }
  return undefined;
}
