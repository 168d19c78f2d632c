/** DELETE /api/resources/{id} (SPEC.md §7). */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../../lib/api';
import { invalidateResourceLists } from './invalidate';

function deleteResource(resourceId: string): Promise<void> {
  return api<void>(`/api/resources/${encodeURIComponent(resourceId)}`, { method: 'DELETE' });
}

export function useDeleteResource(resourceId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => deleteResource(resourceId),
    // The details stay cached until the page has left them: removing them under the open page
    // would fetch the deleted resource again.
    onSuccess: () => invalidateResourceLists(queryClient),
  });
}
