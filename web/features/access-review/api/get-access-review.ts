/**
 * GET /api/organizations/{id}/access-review and GET /api/access-review (issue 33): one page of the role assignments
 * that count now, with X-Total-Count. Read afresh: a time-boxed role leaves it at its end.
 */
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { AccessReviewRow } from '../../../../common/schemas/access-review';
import { apiList } from '../../../lib/api';

export interface AccessReviewRequest {
  kind?: 'STANDING' | 'TIME_BOXED';
  offset?: number;
  limit?: number;
}

/** The review's path: one organization's, or (null) every organization the caller may review. */
export const accessReviewPath = (organizationId: string | null) =>
  organizationId ? `/api/organizations/${encodeURIComponent(organizationId)}/access-review` : '/api/access-review';

const accessReviewQueryOptions = (organizationId: string | null, request: AccessReviewRequest) =>
  queryOptions({
    queryKey: ['access-review', organizationId ?? 'all', request],
    queryFn: ({ signal }) => apiList<AccessReviewRow>(accessReviewPath(organizationId), { query: { ...request }, signal }),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });

export function useAccessReview(organizationId: string | null, request: AccessReviewRequest) {
  return useQuery(accessReviewQueryOptions(organizationId, request));
}
