/**
 * Query keys and API paths of the member calls. Member mutations invalidate under
 * `memberKeys.organization(id)`, so the list, the details and the roles of that organization
 * never show a state the server has moved on from.
 */
import type { QueryClient } from '@tanstack/react-query';
import type { MemberListQuery } from '../../../../common/schemas/member';

export type MembersQuery = Partial<MemberListQuery>;

export const memberKeys = {
  all: ['members'] as const,
  organization: (organizationId: string) => [...memberKeys.all, organizationId] as const,
  list: (organizationId: string, query: MembersQuery) => [...memberKeys.organization(organizationId), 'list', query] as const,
  detail: (organizationId: string, memberId: string) => [...memberKeys.organization(organizationId), 'detail', memberId] as const,
  roles: (organizationId: string, memberId: string) => [...memberKeys.detail(organizationId, memberId), 'roles'] as const,
};

export const membersPath = (organizationId: string) => `/api/organizations/${encodeURIComponent(organizationId)}/members`;

export const memberPath = (organizationId: string, memberId: string) =>
  `${membersPath(organizationId)}/${encodeURIComponent(memberId)}`;

/** Which member a call acts on. */
export interface MemberRef {
  organizationId: string;
  memberId: string;
}

/**
 * The lists that show a member: the organization's members and the admin "User" list, which
 * the admin feature keeps under ['members', 'all', …].
 */
export function invalidateMemberLists(queryClient: QueryClient, organizationId: string): Promise<void> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: [...memberKeys.organization(organizationId), 'list'] }),
    queryClient.invalidateQueries({ queryKey: [...memberKeys.all, 'all'] }),
  ]).then(() => undefined);
}
