/** POST /api/token: a signed API token for the download gateway, answered as text (SPEC.md §3, §7). */
import { useMutation } from '@tanstack/react-query';
import type { TokenRequest } from '../../../../../common/schemas/token';
import { api } from '../../../../lib/api';

function createToken(request: TokenRequest): Promise<string> {
  return api<string>('/api/token', { method: 'POST', body: request });
}

export function useCreateToken() {
  return useMutation({ mutationFn: createToken });
}
