/** GET /api/admin/overview: what needs attention in every organization operator staff read (issue 12 item 6). */
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Overview } from '../../../../common/schemas/overview';
import { api } from '../../../lib/api';

function getAdminOverview(signal?: AbortSignal): Promise<Overview> {
  return api<Overview>('/api/admin/overview', { signal });
}

const adminOverviewQueryOptions = () =>
  queryOptions({
    queryKey: ['overview', 'admin'],
    queryFn: ({ signal }) => getAdminOverview(signal),
    // Counts move with every change anywhere and with time: ask again on each visit.
    staleTime: 0,
  });

export function useAdminOverview() {
  return useQuery(adminOverviewQueryOptions());
}
