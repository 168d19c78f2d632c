/**
 * GET .../members/{memberId}/certificates?sort: the certificates the member owns, at most 1000 (the
 * API's page limit), with X-Total-Count. The key sits under ['certificates'], which every
 * certificate change invalidates, so this list follows those changes too.
 */
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { CertificateSummary } from '../../../../common/schemas/certificate';
import type { CertificateSort } from '../../../../common/schemas/lists';
import { apiList } from '../../../lib/api';
import { memberPath, type MemberRef } from './keys';

const MEMBER_CERTIFICATES_LIMIT = 1000;

function getMemberCertificates({ organizationId, memberId }: MemberRef, sort: CertificateSort | undefined, signal?: AbortSignal) {
  return apiList<CertificateSummary>(`${memberPath(organizationId, memberId)}/certificates`, {
    query: { limit: MEMBER_CERTIFICATES_LIMIT, sort },
    signal,
  });
}

const memberCertificatesQueryOptions = (ref: MemberRef, sort?: CertificateSort) =>
  queryOptions({
    queryKey: ['certificates', 'member', ref.organizationId, ref.memberId, { sort }],
    queryFn: ({ signal }) => getMemberCertificates(ref, sort, signal),
    placeholderData: keepPreviousData,
  });

export function useMemberCertificates(ref: MemberRef, sort?: CertificateSort) {
  return useQuery({ ...memberCertificatesQueryOptions(ref, sort), enabled: !!ref.organizationId && !!ref.memberId });
}
