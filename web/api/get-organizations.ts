/** GET /api/organizations?filter&sort&offset&limit: the organizations the caller may read, X-Total-Count (SPEC.md §7). */
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { Organization } from '../../common/schemas/organization';
import { apiList } from '../lib/api';
import { organizationKeys, type OrganizationListQuery } from './organization-keys';

/** The API's page limit: "all" organizations for the sidebar, the parent choices and the grants. */
export const ALL_ORGANIZATIONS: OrganizationListQuery = { limit: 1000 };

function getOrganizations(query: OrganizationListQuery, signal?: AbortSignal) {
  return apiList<Organization>('/api/organizations', { query: { ...query }, signal });
}

export const organizationsQueryOptions = (query: OrganizationListQuery) =>
  queryOptions({
    queryKey: organizationKeys.list(query),
    queryFn: ({ signal }) => getOrganizations(query, signal),
    placeholderData: keepPreviousData,
  });

export function useOrganizations(query: OrganizationListQuery) {
  return useQuery(organizationsQueryOptions(query));
}
