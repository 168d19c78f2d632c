/**
 * GET /api/organizations/{id}/certificates and GET /api/certificates (across the caller's
 * organizations): one page of summaries and the X-Total-Count (SPEC.md §7).
 */
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { CertificateSummary } from '../../../../common/schemas/certificate';
import { apiList } from '../../../lib/api';
import { refetchAtChange } from '../../../lib/status-clock';
import { certificateKeys, organizationCertificatesPath, type CertificateListQuery } from './keys';

/** `organizationId` null lists every organization the caller may read (the admin list). */
function getCertificates(organizationId: string | null, query: CertificateListQuery, signal?: AbortSignal) {
  const path = organizationId ? organizationCertificatesPath(organizationId) : '/api/certificates';
  return apiList<CertificateSummary>(path, { query: { ...query }, signal });
}

export const certificatesQueryOptions = (organizationId: string | null, query: CertificateListQuery) =>
  queryOptions({
    queryKey: certificateKeys.list(organizationId, query),
    queryFn: ({ signal }) => getCertificates(organizationId, query, signal),
    placeholderData: keepPreviousData,
    // A list filtered on time gains or loses rows at an instant: fetched again then (lib/status-clock.ts).
    refetchInterval: refetchAtChange,
    refetchIntervalInBackground: true,
  });

export function useCertificates(organizationId: string | null, query: CertificateListQuery, options: { enabled?: boolean } = {}) {
  return useQuery({ ...certificatesQueryOptions(organizationId, query), enabled: options.enabled ?? true });
}
