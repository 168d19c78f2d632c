/** POST /api/token: a signed API token for the download gateway, answered as text (SPEC.md §3, §7); the list is stale after it. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TokenRequest } from '../../../../../common/schemas/token';
import { api } from '../../../../lib/api';
import { tokensQueryOptions } from './tokens';

function createToken(request: TokenRequest): Promise<string> {
  return api<string>('/api/token', { method: 'POST', body: request });
}

export function useCreateToken() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: createToken, onSuccess: () => queryClient.invalidateQueries({ queryKey: tokensQueryOptions().queryKey }) });
}
