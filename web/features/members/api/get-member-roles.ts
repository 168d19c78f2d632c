/**
 * GET .../members/{memberId}/roles: the member's assignments in every organization the caller
 * can read, each with its organization (docs/decisions.md "Roles shown are the readable ones").
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { MemberRole } from '../../../../common/schemas/member';
import { api } from '../../../lib/api';
import { memberKeys, memberPath, type MemberRef } from './keys';

function getMemberRoles({ organizationId, memberId }: MemberRef, signal?: AbortSignal): Promise<MemberRole[]> {
  return api<MemberRole[]>(`${memberPath(organizationId, memberId)}/roles`, { signal });
}

const memberRolesQueryOptions = (ref: MemberRef) =>
  queryOptions({
    queryKey: memberKeys.roles(ref.organizationId, ref.memberId),
    queryFn: ({ signal }) => getMemberRoles(ref, signal),
  });

export function useMemberRoles(ref: MemberRef) {
  return useQuery({ ...memberRolesQueryOptions(ref), enabled: !!ref.organizationId && !!ref.memberId });
}
