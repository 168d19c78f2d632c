/**
 * The invitation calls (issue 34 item 2): GET, POST .../invitations, POST .../{id}/resend, DELETE .../{id}.
 * They sit under the organization's member keys: a change fetches the invitations again, and an accepted one
 * shows up in the member list when that is fetched.
 */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Invitation, InvitationCreate } from '../../../../common/schemas/invitation';
import { api, apiList } from '../../../lib/api';
import { memberKeys } from './keys';

const invitationsPath = (organizationId: string) => `/api/organizations/${encodeURIComponent(organizationId)}/invitations`;
const invitationKeys = {
  all: (organizationId: string) => [...memberKeys.organization(organizationId), 'invitations'] as const,
  list: (organizationId: string, page: { offset: number; limit: number }) => [...invitationKeys.all(organizationId), page] as const,
};

/** The open invitations (pending or expired), newest first; `enabled` only for those who may invite. */
export function useInvitations(organizationId: string, page: { offset: number; limit: number }, enabled: boolean) {
  return useQuery({
    queryKey: invitationKeys.list(organizationId, page),
    queryFn: ({ signal }) => apiList<Invitation>(invitationsPath(organizationId), { query: { status: 'open', ...page }, signal }),
    placeholderData: keepPreviousData,
    enabled: enabled && !!organizationId,
  });
}

function useInvitationChange<V extends { organizationId: string }, R>(call: (variables: V) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: (_answer, { organizationId }) => queryClient.invalidateQueries({ queryKey: invitationKeys.all(organizationId) }),
  });
}

export const useInvite = () =>
  useInvitationChange(({ organizationId, body }: { organizationId: string; body: InvitationCreate }) =>
    api<Invitation>(invitationsPath(organizationId), { method: 'POST', body }),
  );

export const useResendInvitation = () =>
  useInvitationChange(({ organizationId, invitationId }: { organizationId: string; invitationId: string }) =>
    api<Invitation>(`${invitationsPath(organizationId)}/${encodeURIComponent(invitationId)}/resend`, { method: 'POST' }),
  );

export const useRevokeInvitation = () =>
  useInvitationChange(({ organizationId, invitationId }: { organizationId: string; invitationId: string }) =>
    api<null>(`${invitationsPath(organizationId)}/${encodeURIComponent(invitationId)}`, { method: 'DELETE' }),
  );
