/**
 * GET /api/organizations/{id}/licenses and GET /api/licenses (across the caller's
 * organizations): one page of licenses and the X-Total-Count (SPEC.md §7).
 */
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { License } from '../../../../common/schemas/license';
import { apiList } from '../../../lib/api';
import { refetchAtChange } from '../../../lib/status-clock';
import { licenseKeys, organizationLicensesPath, type LicenseListQuery } from './keys';

/** `organizationId` null lists every organization the caller may read (the admin list). */
function getLicenses(organizationId: string | null, query: LicenseListQuery, signal?: AbortSignal) {
  const path = organizationId ? organizationLicensesPath(organizationId) : '/api/licenses';
  return apiList<License>(path, { query: { ...query }, signal });
}

const licensesQueryOptions = (organizationId: string | null, query: LicenseListQuery) =>
  queryOptions({
    queryKey: licenseKeys.list(organizationId, query),
    queryFn: ({ signal }) => getLicenses(organizationId, query, signal),
    placeholderData: keepPreviousData,
    // A list filtered on time gains or loses rows at an instant: fetched again then (lib/status-clock.ts).
    refetchInterval: refetchAtChange,
    refetchIntervalInBackground: true,
  });

export function useLicenses(organizationId: string | null, query: LicenseListQuery) {
  return useQuery(licensesQueryOptions(organizationId, query));
}
