/**
 * GET .../members/{memberId}/certificates: the certificates the member owns, at most 1000 (the
 * API's page limit), with X-Total-Count. The key sits under ['certificates'], which every
 * certificate change invalidates, so this list follows those changes too.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { CertificateSummary } from '../../../../common/schemas/certificate';
import { apiList } from '../../../lib/api';
import { memberPath, type MemberRef } from './keys';

const MEMBER_CERTIFICATES_LIMIT = 1000;

function getMemberCertificates({ organizationId, memberId }: MemberRef, signal?: AbortSignal) {
  return apiList<CertificateSummary>(`${memberPath(organizationId, memberId)}/certificates`, {
    query: { limit: MEMBER_CERTIFICATES_LIMIT },
    signal,
  });
}

const memberCertificatesQueryOptions = (ref: MemberRef) =>
  queryOptions({
    queryKey: ['certificates', 'member', ref.organizationId, ref.memberId],
    queryFn: ({ signal }) => getMemberCertificates(ref, signal),
  });

export function useMemberCertificates(ref: MemberRef) {
  return useQuery({ ...memberCertificatesQueryOptions(ref), enabled: !!ref.organizationId && !!ref.memberId });
}
