/**
 * GET /api/licenses/{id}/license-key: the signed key as text/plain, only for approved licenses
 * (409 otherwise; 503 while the master secret is not provided — lib/api.ts shows its message).
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { licenseKeys, licensePath } from './keys';

function getLicenseKey(licenseId: string, signal?: AbortSignal): Promise<string> {
  return api<string>(`${licensePath(licenseId)}/license-key`, { signal });
}

const licenseKeyQueryOptions = (licenseId: string) =>
  queryOptions({
    queryKey: licenseKeys.key(licenseId),
    queryFn: ({ signal }) => getLicenseKey(licenseId, signal),
    // The key of a license never changes once it is approved.
    staleTime: Infinity,
  });

export function useLicenseKey(licenseId: string, options: { enabled: boolean }) {
  return useQuery({ ...licenseKeyQueryOptions(licenseId), enabled: options.enabled && !!licenseId });
}
