/**
 * The API keys of an organization (issue 32): the list, create (answers the secret once, nothing keeps it) and
 * revoke. A change makes the organization's list stale.
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ApiKey, ApiKeyBody } from '../../../common/schemas/api-keys';
import { api } from '../../lib/api';

const keysPath = (organizationId: string) => `/api/organizations/${encodeURIComponent(organizationId)}/api-keys`;

const apiKeyKeys = {
  organization: (organizationId: string) => ['api-keys', organizationId] as const,
  all: ['api-keys', '*'] as const,
};

/** What creating a key answers: its fields and the secret (cpk_…), this once. */
export type CreatedApiKey = ApiKey & { secret: string };

const keysQuery = (organizationId: string) =>
  queryOptions({
    queryKey: apiKeyKeys.organization(organizationId),
    queryFn: ({ signal }) => api<{ items: ApiKey[] }>(keysPath(organizationId), { signal }).then((list) => list.items),
    // The last use moves while keys work.
    staleTime: 0,
  });

export const useApiKeys = (organizationId: string) => useQuery({ ...keysQuery(organizationId), enabled: !!organizationId });

export const useAllApiKeys = () =>
  useQuery({ queryKey: apiKeyKeys.all, queryFn: ({ signal }) => api<{ items: ApiKey[] }>('/api/api-keys', { signal }).then((list) => list.items), staleTime: 0 });

export function useCreateApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ organizationId, body }: { organizationId: string; body: ApiKeyBody }) =>
      api<CreatedApiKey>(keysPath(organizationId), { method: 'POST', body }),
    onSuccess: (_key, { organizationId }) => queryClient.invalidateQueries({ queryKey: apiKeyKeys.organization(organizationId) }),
  });
}

export function useRevokeApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ organizationId, keyId }: { organizationId: string; keyId: string }) =>
      api<void>(`${keysPath(organizationId)}/${encodeURIComponent(keyId)}`, { method: 'DELETE' }),
    onSuccess: (_none, { organizationId }) => queryClient.invalidateQueries({ queryKey: apiKeyKeys.organization(organizationId) }),
  });
}
