/**
 * POST .../members/{memberId}/ban?note and .../unban. Both answer the member, so the badge
 * changes without another call; the ban takes effect at the member's next call.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Member } from '../../../../common/schemas/member';
import { api } from '../../../lib/api';
import { invalidateMemberLists, memberKeys, memberPath, type MemberRef } from './keys';

function banMember({ organizationId, memberId, note }: MemberRef & { note: string }): Promise<Member> {
  return api<Member>(`${memberPath(organizationId, memberId)}/ban`, { method: 'POST', query: { note } });
}

function unbanMember({ organizationId, memberId }: MemberRef): Promise<Member> {
  return api<Member>(`${memberPath(organizationId, memberId)}/unban`, { method: 'POST' });
}

function useMemberChange<V extends MemberRef>(call: (variables: V) => Promise<Member>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: (member, { organizationId, memberId }) => {
      queryClient.setQueryData(memberKeys.detail(organizationId, memberId), member);
      return invalidateMemberLists(queryClient, organizationId);
    },
  });
}

export const useBanMember = () => useMemberChange(banMember);
export const useUnbanMember = () => useMemberChange(unbanMember);
