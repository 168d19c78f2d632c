/**
 * GET /api/approve and GET /api/acknowledge (SPEC.md §7): the certificates and licenses waiting
 * for an approval, and those waiting for an expiry acknowledgement, in the organizations where
 * the caller has a role.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Pending } from '../../../../../common/schemas/pending';
import { api } from '../../../../lib/api';

export type PendingKind = 'approve' | 'acknowledge';

export function getPending(kind: PendingKind, signal?: AbortSignal): Promise<Pending> {
  return api<Pending>(`/api/${kind}`, { signal });
}

export const pendingQueryOptions = (kind: PendingKind) =>
  queryOptions({
    queryKey: ['pending', kind],
    queryFn: ({ signal }) => getPending(kind, signal),
    // Tasks are done on other screens (and by other people): ask again on each visit.
    staleTime: 0,
  });

export function usePending(kind: PendingKind) {
  return useQuery(pendingQueryOptions(kind));
}
