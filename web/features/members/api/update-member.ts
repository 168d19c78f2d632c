/**
 * PUT /api/organizations/{id}/members/{memberId}: the contact fields (docs/decisions.md "Member
 * save"). The body is checked with the API's own schema first; the email goes back unchanged.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Member, MemberUpdate } from '../../../../common/schemas/member';
import { api } from '../../../lib/api';
import { invalidateMemberLists, memberKeys, memberPath, type MemberRef } from './keys';

function updateMember({ organizationId, memberId, member }: MemberRef & { member: MemberUpdate }): Promise<Member> {
  return api<Member>(memberPath(organizationId, memberId), { method: 'PUT', body: member });
}

export function useUpdateMember() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateMember,
    onSuccess: (member, { organizationId, memberId }) => {
      queryClient.setQueryData(memberKeys.detail(organizationId, memberId), member);
      return invalidateMemberLists(queryClient, organizationId);
    },
  });
}
