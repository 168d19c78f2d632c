/** GET /api/resources?filter: every resource in ordinal order, for operator staff (SPEC.md §7). */
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { Resource } from '../../../../../common/schemas/resource';
import { api } from '../../../../lib/api';

function getResources(filter?: string, signal?: AbortSignal): Promise<Resource[]> {
  return api<Resource[]>('/api/resources', { query: { filter }, signal });
}

const resourcesQueryOptions = (filter?: string) =>
  queryOptions({
    queryKey: ['resources', 'list', { filter: filter ?? '' }],
    queryFn: ({ signal }) => getResources(filter, signal),
    placeholderData: keepPreviousData,
  });

export function useResources(filter?: string, options: { enabled?: boolean } = {}) {
  return useQuery({ ...resourcesQueryOptions(filter), enabled: options.enabled ?? true });
}
