/**
 * POST /api/organizations (201): a CUSTOMER below the chosen parent, or a PARTNER below the
 * creator's organization (docs/decisions.md "Creating an organization").
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Organization, OrganizationCreate } from '../../../../../common/schemas/organization';
import { api } from '../../../../lib/api';
import { organizationChanged } from './organization-changed';

function createOrganization(organization: OrganizationCreate): Promise<Organization> {
  return api<Organization>('/api/organizations', { method: 'POST', body: organization });
}

export function useCreateOrganization() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createOrganization,
    onSuccess: (organization) => organizationChanged(queryClient, organization),
  });
}
