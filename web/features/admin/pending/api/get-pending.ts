/**
 * GET /api/approve and GET /api/acknowledge (SPEC.md §7): the certificates and licenses waiting
 * for an approval, and those waiting for an expiry acknowledgement, in the organizations where
 * the caller has a role. One page of each list with its total (docs/decisions.md "Pending tasks").
 */
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { PENDING_PAGE_SIZE, type Pending, type PendingCertificateSort, type PendingLicenseSort } from '../../../../../common/schemas/pending';
import { api } from '../../../../lib/api';

export type PendingKind = 'approve' | 'acknowledge';

export { PENDING_PAGE_SIZE };

/** Where each list's page starts (both lists have PENDING_PAGE_SIZE rows) and its order (none: the usual one). */
export interface PendingPage {
  certificatesOffset: number;
  licensesOffset: number;
  certificatesSort?: PendingCertificateSort;
  licensesSort?: PendingLicenseSort;
}

function getPending(kind: PendingKind, page: PendingPage, signal?: AbortSignal): Promise<Pending> {
  return api<Pending>(`/api/${kind}`, { query: { ...page, limit: PENDING_PAGE_SIZE }, signal });
}

const pendingQueryOptions = (kind: PendingKind, page: PendingPage) =>
  queryOptions({
    queryKey: ['pending', kind, page],
    queryFn: ({ signal }) => getPending(kind, page, signal),
    // The rows of the page before stay while the next one loads, as in every paged list.
    placeholderData: keepPreviousData,
    // Tasks are done on other screens (and by other people): ask again on each visit.
    staleTime: 0,
  });

export function usePending(kind: PendingKind, page: PendingPage) {
  return useQuery(pendingQueryOptions(kind, page));
}

/** Whether any certificate or license waits for the caller's approval (the landing after sign-in); no on failure. */
export async function hasPendingApprovals(): Promise<boolean> {
  try {
    const pending = await api<Pending>('/api/approve', { query: { certificatesOffset: 0, licensesOffset: 0, limit: 1 }, quiet: true });
    return pending.certificates_total + pending.licenses_total > 0;
  } catch {
    return false; // the landing falls back to the organization's Certificates, where any failure shows again
  }
}
