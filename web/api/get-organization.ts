/** GET /api/organizations/{id}: one organization with the caller's roles in it (SPEC.md §7). */
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Organization } from '../../common/schemas/organization';
import { api, type RequestOptions } from '../lib/api';
import { organizationKeys, organizationPath } from './organization-keys';

export function getOrganization(organizationId: string, options?: Pick<RequestOptions, 'signal' | 'quiet'>): Promise<Organization> {
  return api<Organization>(organizationPath(organizationId), options);
}

const organizationQueryOptions = (organizationId: string) =>
  queryOptions({
    queryKey: organizationKeys.detail(organizationId),
    queryFn: ({ signal }) => getOrganization(organizationId, { signal }),
  });

export function useOrganization(organizationId: string | undefined) {
  return useQuery({ ...organizationQueryOptions(organizationId ?? ''), enabled: !!organizationId });
}
