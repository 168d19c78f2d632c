/** GET /api/licenses/{id}: one license with its version, successor and computed days left. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { License } from '../../../../common/schemas/license';
import { api } from '../../../lib/api';
import { licenseKeys, licensePath } from './keys';

function getLicense(licenseId: string, signal?: AbortSignal): Promise<License> {
  return api<License>(licensePath(licenseId), { signal });
}

const licenseQueryOptions = (licenseId: string) =>
  queryOptions({
    queryKey: licenseKeys.detail(licenseId),
    queryFn: ({ signal }) => getLicense(licenseId, signal),
  });

export function useLicense(licenseId: string | undefined) {
  return useQuery({ ...licenseQueryOptions(licenseId ?? ''), enabled: !!licenseId });
}
