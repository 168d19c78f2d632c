/** GET /api/organizations/{id}/members/{memberId}: one member of the path organization (SPEC.md §7). */
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Member } from '../../../../common/schemas/member';
import { api } from '../../../lib/api';
import { memberKeys, memberPath, type MemberRef } from './keys';

function getMember({ organizationId, memberId }: MemberRef, signal?: AbortSignal): Promise<Member> {
  return api<Member>(memberPath(organizationId, memberId), { signal });
}

const memberQueryOptions = (ref: MemberRef) =>
  queryOptions({
    queryKey: memberKeys.detail(ref.organizationId, ref.memberId),
    queryFn: ({ signal }) => getMember(ref, signal),
  });

export function useMember(ref: MemberRef) {
  return useQuery({ ...memberQueryOptions(ref), enabled: !!ref.organizationId && !!ref.memberId });
}
