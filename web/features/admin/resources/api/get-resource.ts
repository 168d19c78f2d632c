/** GET /api/resources/{id} (SPEC.md §7). */
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Resource } from '../../../../../common/schemas/resource';
import { api } from '../../../../lib/api';

function getResource(resourceId: string, signal?: AbortSignal): Promise<Resource> {
  return api<Resource>(`/api/resources/${encodeURIComponent(resourceId)}`, { signal });
}

export const resourceQueryOptions = (resourceId: string) =>
  queryOptions({
    queryKey: ['resources', 'detail', resourceId],
    queryFn: ({ signal }) => getResource(resourceId, signal),
  });

export function useResource(resourceId: string) {
  return useQuery({ ...resourceQueryOptions(resourceId), enabled: !!resourceId });
}
