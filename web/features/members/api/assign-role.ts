/**
 * POST .../roles/assign?role&scope[&until] and .../roles/unassign?role. Assigning a held role again changes its
 * end (extend, shorten; without `until` it becomes standing). Both answer the member's roles,
 * which replace the cached ones; the member itself (its `roles`) and the list are fetched again.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Role, Scope } from '../../../../common/enums';
import type { MemberRole } from '../../../../common/schemas/member';
import { api } from '../../../lib/api';
import { memberKeys, memberPath, type MemberRef } from './keys';

function assignRole({ organizationId, memberId, role, scope, until }: MemberRef & { role: Role; scope: Scope; until?: string }): Promise<MemberRole[]> {
  return api<MemberRole[]>(`${memberPath(organizationId, memberId)}/roles/assign`, { method: 'POST', query: { role, scope, until } });
}

function unassignRole({ organizationId, memberId, role }: MemberRef & { role: Role }): Promise<MemberRole[]> {
  return api<MemberRole[]>(`${memberPath(organizationId, memberId)}/roles/unassign`, { method: 'POST', query: { role } });
}

function useRoleChange<V extends MemberRef>(call: (variables: V) => Promise<MemberRole[]>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: (roles, { organizationId, memberId }) => {
      queryClient.setQueryData(memberKeys.roles(organizationId, memberId), roles);
      // The roles query sits below the detail key; refetching it again would only repeat the answer.
      return queryClient.invalidateQueries({
        queryKey: memberKeys.organization(organizationId),
        predicate: (query) => query.queryKey.at(-1) !== 'roles',
      });
    },
  });
}

export const useAssignRole = () => useRoleChange(assignRole);
export const useUnassignRole = () => useRoleChange(unassignRole);
