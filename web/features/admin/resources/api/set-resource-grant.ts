/**
 * POST /api/resources/{id}/add?organization= and /remove?organization=: grant a RESTRICTED
 * resource to an organization or take it back (SPEC.md §4, §7). Answers the resource.
 * The switch moves at once (optimistic update) and moves back if the call fails.
 */
import { useMutation, useQueryClient, type QueryClient, type QueryKey } from '@tanstack/react-query';
import type { Resource } from '../../../../../common/schemas/resource';
import { api } from '../../../../lib/api';
import { resourceQueryOptions } from './get-resource';
import { invalidateResourceLists } from './invalidate';

interface GrantChange {
  resourceId: string;
  organizationId: string;
  organizationName: string;
  granted: boolean;
}

function setResourceGrant({ resourceId, organizationId, granted }: GrantChange): Promise<Resource> {
  return api<Resource>(`/api/resources/${encodeURIComponent(resourceId)}/${granted ? 'add' : 'remove'}`, {
    method: 'POST',
    query: { organization: organizationId },
  });
}

const LISTS: QueryKey = ['resources', 'list'];

function withGrant(resource: Resource, change: GrantChange): Resource {
  const others = resource.organizations.filter((o) => o.organization_id !== change.organizationId);
  const organizations = change.granted
    ? [...others, { organization_id: change.organizationId, organization_name: change.organizationName }]
    : others;
  return { ...resource, organizations };
}

/** Puts a resource (or a function of it) into the detail and every list that holds it. */
function putResource(queryClient: QueryClient, resourceId: string, update: (resource: Resource) => Resource) {
  queryClient.setQueryData<Resource>(resourceQueryOptions(resourceId).queryKey, (r) => (r ? update(r) : r));
  queryClient.setQueriesData<Resource[]>({ queryKey: LISTS }, (list) =>
    list?.map((r) => (r.resource_id === resourceId ? update(r) : r)),
  );
}

export function useSetResourceGrant() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setResourceGrant,
    onMutate: async (change) => {
      const detailKey = resourceQueryOptions(change.resourceId).queryKey;
      await Promise.all([queryClient.cancelQueries({ queryKey: detailKey }), queryClient.cancelQueries({ queryKey: LISTS })]);
      const before = {
        detail: queryClient.getQueryData<Resource>(detailKey),
        lists: queryClient.getQueriesData<Resource[]>({ queryKey: LISTS }),
      };
      putResource(queryClient, change.resourceId, (r) => withGrant(r, change));
      return before;
    },
    onError: (_error, change, before) => {
      if (!before) return;
      queryClient.setQueryData(resourceQueryOptions(change.resourceId).queryKey, before.detail);
      for (const [key, data] of before.lists) queryClient.setQueryData(key, data);
    },
    onSuccess: (resource) => putResource(queryClient, resource.resource_id, () => resource),
    onSettled: () => invalidateResourceLists(queryClient),
  });
}
