/** GET /api/organizations/{id}/overview: what needs attention in one organization (issue 12 item 6). */
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Overview } from '../../../../common/schemas/overview';
import { api } from '../../../lib/api';

function getOrganizationOverview(organizationId: string, signal?: AbortSignal): Promise<Overview> {
  return api<Overview>(`/api/organizations/${encodeURIComponent(organizationId)}/overview`, { signal });
}

const organizationOverviewQueryOptions = (organizationId: string) =>
  queryOptions({
    queryKey: ['overview', organizationId],
    queryFn: ({ signal }) => getOrganizationOverview(organizationId, signal),
    // Counts move with every change anywhere and with time: ask again on each visit.
    staleTime: 0,
  });

export function useOrganizationOverview(organizationId: string) {
  return useQuery({ ...organizationOverviewQueryOptions(organizationId), enabled: !!organizationId });
}
