/**
 * GET /api/organizations/{id}/auditrecords?filter&sort&offset&limit: one page of the journal, newest
 * first (or oldest first), with X-Total-Count (SPEC.md §7, DECISIONS.md "Journal").
 */
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { AuditRecord, JournalSort } from '../../../../common/schemas/audit';
import { apiList } from '../../../lib/api';

export interface AuditRecordsQuery {
  filter?: string;
  sort?: JournalSort;
  offset?: number;
  limit?: number;
}

function getAuditRecords(organizationId: string, query: AuditRecordsQuery, signal?: AbortSignal) {
  return apiList<AuditRecord>(`/api/organizations/${encodeURIComponent(organizationId)}/auditrecords`, { query: { ...query }, signal });
}

const auditRecordsQueryOptions = (organizationId: string, query: AuditRecordsQuery) =>
  queryOptions({
    queryKey: ['auditrecords', organizationId, query],
    queryFn: ({ signal }) => getAuditRecords(organizationId, query, signal),
    placeholderData: keepPreviousData,
    // Every change elsewhere in the portal writes a record: show the journal as it is now.
    staleTime: 0,
  });

export function useAuditRecords(organizationId: string, query: AuditRecordsQuery) {
  return useQuery({ ...auditRecordsQueryOptions(organizationId, query), enabled: !!organizationId });
}
