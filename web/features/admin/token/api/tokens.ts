/** GET /api/tokens and DELETE /api/tokens/{id} (issue 34): the gateway tokens made, and revoking one. */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ApiToken } from '../../../../../common/schemas/token';
import { api } from '../../../../lib/api';

export const tokensQueryOptions = () =>
  queryOptions({
    queryKey: ['admin', 'tokens'],
    queryFn: ({ signal }) => api<{ items: ApiToken[] }>('/api/tokens', { signal }).then((list) => list.items),
    // "Last used" moves while gateways poll: ask again on each visit.
    staleTime: 0,
  });

export function useApiTokens(enabled = true) {
  return useQuery({ ...tokensQueryOptions(), enabled });
}

export function useRevokeToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (tokenId: string) => api<ApiToken>(`/api/tokens/${encodeURIComponent(tokenId)}`, { method: 'DELETE' }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: tokensQueryOptions().queryKey }),
  });
}
