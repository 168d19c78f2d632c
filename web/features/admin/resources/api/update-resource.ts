/** PUT /api/resources/{id} (SPEC.md §7). */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Resource, ResourceInput } from '../../../../../common/schemas/resource';
import { api } from '../../../../lib/api';
import { resourceQueryOptions } from './get-resource';
import { invalidateResourceLists } from './invalidate';

function updateResource(resourceId: string, input: ResourceInput): Promise<Resource> {
  return api<Resource>(`/api/resources/${encodeURIComponent(resourceId)}`, { method: 'PUT', body: input });
}

export function useUpdateResource(resourceId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ResourceInput) => updateResource(resourceId, input),
    onSuccess: (resource) => {
      queryClient.setQueryData(resourceQueryOptions(resourceId).queryKey, resource);
      invalidateResourceLists(queryClient);
    },
  });
}
