/** GET /api/resources?filter&sort: every resource in ordinal order (or by name), for operator staff (SPEC.md §7). */
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { Resource, ResourceSort } from '../../../../../common/schemas/resource';
import { api } from '../../../../lib/api';

function getResources(filter: string | undefined, sort: ResourceSort | undefined, signal?: AbortSignal): Promise<Resource[]> {
  return api<Resource[]>('/api/resources', { query: { filter, sort }, signal });
}

const resourcesQueryOptions = (filter?: string, sort?: ResourceSort) =>
  queryOptions({
    queryKey: ['resources', 'list', { filter: filter ?? '', sort }],
    queryFn: ({ signal }) => getResources(filter, sort, signal),
    placeholderData: keepPreviousData,
  });

export function useResources(filter?: string, options: { enabled?: boolean; sort?: ResourceSort } = {}) {
  return useQuery({ ...resourcesQueryOptions(filter, options.sort), enabled: options.enabled ?? true });
}
