/**
 * The journal of an organization (SPEC.md §2 "/auditrecords"): its audit records newest first,
 * a filter on the reason code or the message text, and pages of 100.
 */
import { Code, Table } from '@mantine/core';
import type { AuditRecord } from '../../../common/schemas/audit';
import { formatDateTime } from '../../../common/dates';
import { FilterForm } from '../../components/FilterForm';
import { Page } from '../../components/Page';
import { PagedList } from '../../components/PagedList';
import { StackedTable } from '../../components/StackedTable';
import { useListSearch } from '../../components/useListSearch';
import { useRouteOrganization } from '../../components/useRouteOrganization';
import { JOURNAL_PAGE_SIZE, useAuditRecords } from './api/get-audit-records';

function JournalTable({ records }: { records: AuditRecord[] }) {
  return (
    <StackedTable striped verticalSpacing="xs">
      <Table.Thead>
        <Table.Tr>
          <Table.Th scope="col">Date</Table.Th>
          <Table.Th scope="col">Reason</Table.Th>
          <Table.Th scope="col">Member</Table.Th>
          <Table.Th scope="col">Message</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {records.map((record) => (
          <Table.Tr key={record.record_id}>
            <Table.Td data-label="Date" style={{ whiteSpace: 'nowrap' }}>{formatDateTime(record.date_created)}</Table.Td>
            <Table.Td data-label="Reason">
              <Code>{record.reason}</Code>
            </Table.Td>
            <Table.Td data-label="Member" className="break-anywhere">{record.member_email ?? '-'}</Table.Td>
            <Table.Td data-label="Message" className="break-anywhere">{record.message}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </StackedTable>
  );
}

export default function JournalPage() {
  const { orgId, organization } = useRouteOrganization();
  const { filter, page, offset, setFilter, setPage } = useListSearch(JOURNAL_PAGE_SIZE);
  const records = useAuditRecords(orgId, { filter: filter || undefined, offset, limit: JOURNAL_PAGE_SIZE });

  return (
    <Page title="Journal" subtitle={organization ? `What happened in ${organization.organization_name}, newest first.` : '…'}>
      <FilterForm label="Filter by reason or message" placeholder="e.g. ROLE_ASSIGNED or an email" value={filter} onFilter={setFilter} />
      <PagedList
        query={records}
        noun="records"
        errorText="The journal could not be loaded."
        emptyText="No audit records found."
        page={page}
        pageSize={JOURNAL_PAGE_SIZE}
        onPage={setPage}
      >
        {(items) => <JournalTable records={items} />}
      </PagedList>
    </Page>
  );
}
