/** DELETE .../members/{memberId}: the member and their role assignments go; certificates stay. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { invalidateMemberLists, memberPath, type MemberRef } from './keys';

function removeMember({ organizationId, memberId }: MemberRef): Promise<void> {
  return api<void>(memberPath(organizationId, memberId), { method: 'DELETE' });
}

export function useRemoveMember() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removeMember,
    // The details stay cached until the page has left; removing them now would refetch a 404.
    onSuccess: (_, { organizationId }) => invalidateMemberLists(queryClient, organizationId),
  });
}
