/**
 * POST /api/admin/mastersecret with the secret as text/plain (SPEC.md §7). 409 "Secret already
 * provided!" and 400 (too short, not the secret provided before) arrive as toasts from
 * lib/api.ts; either way the state is asked again.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AdminState } from '../../../../../common/schemas/admin';
import { api } from '../../../../lib/api';
import { adminStateQueryOptions } from '../../token/api/get-admin-state';

function provideMasterSecret(secret: string): Promise<AdminState> {
  // A string body goes as text/plain: the secret is never wrapped in JSON.
  return api<AdminState>('/api/admin/mastersecret', { method: 'POST', body: secret });
}

export function useProvideMasterSecret() {
  const queryClient = useQueryClient();
  const { queryKey } = adminStateQueryOptions();
  return useMutation({
    mutationFn: provideMasterSecret,
    onSuccess: (state) => queryClient.setQueryData(queryKey, state),
    onSettled: () => queryClient.invalidateQueries({ queryKey }),
  });
}
