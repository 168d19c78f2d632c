/** What a change of a resource makes stale: the resource lists and the per-organization lists. */
import type { QueryClient } from '@tanstack/react-query';

export function invalidateResourceLists(queryClient: QueryClient): void {
  void queryClient.invalidateQueries({ queryKey: ['resources', 'list'] });
  // organizationKeys.resources(id) of every organization: what it may use depends on access and grants.
  void queryClient.invalidateQueries({ predicate: (query) => query.queryKey[0] === 'organizations' && query.queryKey[2] === 'resources' });
}
