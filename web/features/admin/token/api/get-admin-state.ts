/** GET /api/admin/state: whether the master secret is provided (SPEC.md §7). */
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AdminState } from '../../../../../common/schemas/admin';
import { api } from '../../../../lib/api';

const SECRET_POLL_MS = 15_000;

function getAdminState(signal?: AbortSignal): Promise<AdminState> {
  return api<AdminState>('/api/admin/state', { signal });
}

export const adminStateQueryOptions = () =>
  queryOptions({
    queryKey: ['admin', 'state'],
    queryFn: ({ signal }) => getAdminState(signal),
    // Another DEVOPS member may provide the secret meanwhile: ask again on each visit, and
    // every 15 s while it is missing, so the banner goes away without a reload.
    staleTime: 0,
    refetchInterval: (query) => (query.state.data?.secret_provided === false ? SECRET_POLL_MS : false),
  });

export function useAdminState() {
  return useQuery(adminStateQueryOptions());
}
