/**
 * GET /api/organizations/{id}/resources: the resources the organization may use (SPEC.md §7): its
 * Resources page, and the admin Resources tab when the caller is not operator staff (who alone
 * may list all resources).
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Resource } from '../../common/schemas/resource';
import { api } from '../lib/api';
import { organizationKeys, organizationPath } from './organization-keys';

function getOrganizationResources(organizationId: string, signal?: AbortSignal): Promise<Resource[]> {
  return api<Resource[]>(`${organizationPath(organizationId)}/resources`, { signal });
}

const organizationResourcesQueryOptions = (organizationId: string) =>
  queryOptions({
    queryKey: organizationKeys.resources(organizationId),
    queryFn: ({ signal }) => getOrganizationResources(organizationId, signal),
  });

export function useOrganizationResources(organizationId: string, options: { enabled?: boolean } = {}) {
  return useQuery({ ...organizationResourcesQueryOptions(organizationId), enabled: !!organizationId && (options.enabled ?? true) });
}
