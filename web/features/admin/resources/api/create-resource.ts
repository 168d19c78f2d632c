/** POST /api/resources: a new resource; the server makes its id (SPEC.md §3, §7). */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Resource, ResourceInput } from '../../../../../common/schemas/resource';
import { api } from '../../../../lib/api';
import { resourceQueryOptions } from './get-resource';
import { invalidateResourceLists } from './invalidate';

function createResource(input: ResourceInput): Promise<Resource> {
  return api<Resource>('/api/resources', { method: 'POST', body: input });
}

export function useCreateResource() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createResource,
    onSuccess: (resource) => {
      queryClient.setQueryData(resourceQueryOptions(resource.resource_id).queryKey, resource);
      invalidateResourceLists(queryClient);
    },
  });
}
