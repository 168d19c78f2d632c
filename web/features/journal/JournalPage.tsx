/**
 * The journal of an organization (SPEC.md §2 "/auditrecords"): its audit records newest first (or
 * oldest first, by the Date header), a filter on the reason code or the message text, and pages of
 * the person's size (25, 50 or 100).
 */
import { Code, Group } from '@mantine/core';
import type { AuditRecord } from '../../../common/schemas/audit';
import { JOURNAL_SORTS } from '../../../common/sorts';
import { formatDateTime, localizeTimesInText } from '../../../common/dates';
import { DataTable, type DataColumn } from '../../components/DataTable';
import { ExportCsvButton } from '../../components/ExportCsvButton';
import { FilterForm } from '../../components/FilterForm';
import { Page } from '../../components/Page';
import { PagedList } from '../../components/PagedList';
import { useListSearch, useListSort } from '../../components/useListSearch';
import { useRouteOrganization } from '../../components/useRouteOrganization';
import { usePageSize } from '../../lib/preferences';
import { useAuditRecords } from './api/get-audit-records';

const COLUMNS: DataColumn<AuditRecord>[] = [
  { header: 'Date', nowrap: true, sort: 'date_created', cell: (r) => formatDateTime(r.date_created) },
  { header: 'Reason', cell: (r) => <Code>{r.reason}</Code> },
  { header: 'Member', breakAnywhere: true, cell: (r) => r.member_email ?? '-' },
  { header: 'Message', breakAnywhere: true, cell: (r) => localizeTimesInText(r.message) },
];

export default function JournalPage() {
  const { orgId, organization } = useRouteOrganization();
  const [pageSize] = usePageSize();
  const { filter, page, offset, setFilter, setPage } = useListSearch(pageSize);
  const { sort, order, setSort } = useListSort(JOURNAL_SORTS, '-date_created');
  const records = useAuditRecords(orgId, { filter: filter || undefined, sort, offset, limit: pageSize });

  return (
    <Page title="Journal" subtitle={organization ? `What happened in ${organization.organization_name}, ${order === 'date_created' ? 'oldest' : 'newest'} first.` : '…'}>
      <Group justify="space-between" align="flex-end" gap="xs">
        <FilterForm label="Filter by reason or message" placeholder="e.g. ROLE_ASSIGNED or an email" value={filter} onFilter={setFilter} />
        <ExportCsvButton path={`/api/organizations/${encodeURIComponent(orgId)}/auditrecords`} request={{ filter: filter || undefined, sort }} name="journal" />
      </Group>
      <PagedList
        query={records}
        noun="records"
        errorText="The journal could not be loaded."
        emptyText="No audit records found."
        page={page}
        pageSize={pageSize}
        onPage={setPage}
      >
        {(items) => <DataTable label="Journal" columns={COLUMNS} rows={items} rowKey={(r) => r.record_id} minWidth={0} dense sort={{ order, onSort: setSort }} />}
      </PagedList>
    </Page>
  );
}
