/**
 * POST /api/organizations/{id}/ban?note and .../unban. Both answer the organization; its members
 * are refused from their next call on (docs/decisions.md "Bans").
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Organization } from '../../../../../common/schemas/organization';
import { organizationPath } from '../../../../api/organization-keys';
import { api } from '../../../../lib/api';
import { organizationChanged } from './organization-changed';

function banOrganization({ organizationId, note }: { organizationId: string; note: string }): Promise<Organization> {
  return api<Organization>(`${organizationPath(organizationId)}/ban`, { method: 'POST', query: { note } });
}

function unbanOrganization({ organizationId }: { organizationId: string }): Promise<Organization> {
  return api<Organization>(`${organizationPath(organizationId)}/unban`, { method: 'POST' });
}

export function useBanOrganization() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: banOrganization, onSuccess: (o) => organizationChanged(queryClient, o) });
}

export function useUnbanOrganization() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: unbanOrganization, onSuccess: (o) => organizationChanged(queryClient, o) });
}
