/** GET /api/organizations/{id}/members?filter&sort&offset&limit: one page and X-Total-Count (SPEC.md §7). */
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { Member } from '../../../../common/schemas/member';
import { apiList } from '../../../lib/api';
import { memberKeys, membersPath, type MembersQuery } from './keys';

function getMembers(organizationId: string, query: MembersQuery, signal?: AbortSignal) {
  return apiList<Member>(membersPath(organizationId), { query: { ...query }, signal });
}

const membersQueryOptions = (organizationId: string, query: MembersQuery) =>
  queryOptions({
    queryKey: memberKeys.list(organizationId, query),
    queryFn: ({ signal }) => getMembers(organizationId, query, signal),
    placeholderData: keepPreviousData,
  });

export function useMembers(organizationId: string, query: MembersQuery) {
  return useQuery({ ...membersQueryOptions(organizationId, query), enabled: !!organizationId });
}
