/**
 * PUT /api/organizations/{id}: the editable fields; the role is fixed and the parent moves only
 * customers (docs/decisions.md "Saving an organization").
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Organization, OrganizationUpdate } from '../../../../../common/schemas/organization';
import { organizationPath } from '../../../../api/organization-keys';
import { api } from '../../../../lib/api';
import { organizationChanged } from './organization-changed';

function updateOrganization({ organizationId, organization }: { organizationId: string; organization: OrganizationUpdate }) {
  return api<Organization>(organizationPath(organizationId), { method: 'PUT', body: organization });
}

export function useUpdateOrganization() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateOrganization,
    onSuccess: (organization) => organizationChanged(queryClient, organization),
  });
}
