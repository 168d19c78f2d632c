/** GET /api/piston/statistics: the ETags of the gateway's files and recent certificate changes (SPEC.md §3). */
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PistonStatistics } from '../../../../../common/schemas/piston';
import { api } from '../../../../lib/api';

function getPistonStatistics(signal?: AbortSignal): Promise<PistonStatistics> {
  return api<PistonStatistics>('/api/piston/statistics', { signal });
}

const pistonStatisticsQueryOptions = () =>
  queryOptions({
    queryKey: ['piston', 'statistics'],
    queryFn: ({ signal }) => getPistonStatistics(signal),
    staleTime: 0,
  });

export function usePistonStatistics() {
  return useQuery(pistonStatisticsQueryOptions());
}
