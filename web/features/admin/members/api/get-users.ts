/**
 * GET /api/members?filter&sort&offset&limit: the members of every organization the caller can read
 * (the admin "User" list), with X-Total-Count (SPEC.md §7).
 */
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { Member, MemberSort } from '../../../../../common/schemas/member';
import { apiList } from '../../../../lib/api';

export interface UsersQuery {
  filter?: string;
  sort?: MemberSort;
  offset?: number;
  limit?: number;
}

function getUsers(query: UsersQuery, signal?: AbortSignal) {
  return apiList<Member>('/api/members', { query: { ...query }, signal });
}

const usersQueryOptions = (query: UsersQuery) =>
  queryOptions({
    // Under ['members'], so member changes (ban, save, remove) refresh this list too.
    queryKey: ['members', 'all', query],
    queryFn: ({ signal }) => getUsers(query, signal),
    placeholderData: keepPreviousData,
  });

export function useUsers(query: UsersQuery) {
  return useQuery(usersQueryOptions(query));
}
