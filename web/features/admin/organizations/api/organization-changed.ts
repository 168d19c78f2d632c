/**
 * After a change the API answers the organization: it replaces the cached details, the lists
 * (admin, Self-Service, sidebar) are fetched again, and when it is the current organization of
 * the session its stored copy (name, logo in the sidebar) is replaced too.
 */
import type { QueryClient } from '@tanstack/react-query';
import type { Organization } from '../../../../../common/schemas/organization';
import { organizationKeys } from '../../../../api/organization-keys';
import { session } from '../../../../lib/session';

export function organizationChanged(queryClient: QueryClient, organization: Organization): Promise<void> {
  queryClient.setQueryData(organizationKeys.detail(organization.organization_id), organization);
  if (session.get().organization?.organization_id === organization.organization_id) session.setOrganization(organization);
  return queryClient.invalidateQueries({ queryKey: organizationKeys.lists() });
}
