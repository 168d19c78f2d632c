/**
 * GET /api/organizations/{id}/resources: the resources the organization may use (SPEC.md §7): its
 * Resources page, and the admin Resources tab when the caller is not operator staff (who alone
 * may list all resources).
 */
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { Resource, ResourceSort } from '../../common/schemas/resource';
import { api } from '../lib/api';
import { organizationKeys, organizationPath } from './organization-keys';

function getOrganizationResources(organizationId: string, sort: ResourceSort | undefined, signal?: AbortSignal): Promise<Resource[]> {
  return api<Resource[]>(`${organizationPath(organizationId)}/resources`, { query: { sort }, signal });
}

const organizationResourcesQueryOptions = (organizationId: string, sort?: ResourceSort) =>
  queryOptions({
    // Under the organization's resources key, which resource changes invalidate.
    queryKey: [...organizationKeys.resources(organizationId), { sort }],
    queryFn: ({ signal }) => getOrganizationResources(organizationId, sort, signal),
    placeholderData: keepPreviousData,
  });

export function useOrganizationResources(organizationId: string, options: { enabled?: boolean; sort?: ResourceSort } = {}) {
  return useQuery({ ...organizationResourcesQueryOptions(organizationId, options.sort), enabled: !!organizationId && (options.enabled ?? true) });
}
