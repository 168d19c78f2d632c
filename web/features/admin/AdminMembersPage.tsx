/**
 * Admin: User (SPEC.md §2 "members"): the members of every organization the caller can read,
 * with organization, email and ban state; a filter by name or email; sorted by name, organization
 * or email. Each row opens the member's details in their organization.
 */
import { Link } from 'react-router';
import { Anchor, Group } from '@mantine/core';
import type { Member } from '../../../common/schemas/member';
import { MEMBER_SORTS } from '../../../common/sorts';
import { WithBannedBadge } from '../../components/BanNotice';
import { DataTable, type DataColumn } from '../../components/DataTable';
import { ExportCsvButton } from '../../components/ExportCsvButton';
import { FilterForm } from '../../components/FilterForm';
import { Page } from '../../components/Page';
import { PagedList } from '../../components/PagedList';
import { useListSearch, useListSort } from '../../components/useListSearch';
import { memberDetailsPath } from '../../lib/navigation';
import { useUsers } from './members/api/get-users';
import { usePageSize } from '../../lib/preferences';

const COLUMNS: DataColumn<Member>[] = [
  {
    header: 'Name',
    rowHeader: true,
    sort: 'name',
    cell: (m) => (
      <WithBannedBadge banned={!!m.date_member_banned}>
        <Anchor component={Link} to={memberDetailsPath(m.organization_id, m.member_id)} fw={600} className="break-anywhere">
          {m.name}
        </Anchor>
      </WithBannedBadge>
    ),
  },
  { header: 'Organization', breakAnywhere: true, sort: 'organization_name', cell: (m) => m.organization_name },
  { header: 'Email', breakAnywhere: true, sort: 'member_email', cell: (m) => m.member_email },
];

export default function AdminMembersPage() {
  const [pageSize] = usePageSize();
  const { filter, page, offset, setFilter, setPage } = useListSearch(pageSize);
  const { sort, order, setSort } = useListSort(MEMBER_SORTS, 'name');
  const users = useUsers({ filter: filter || undefined, sort, offset, limit: pageSize });

  return (
    <Page title="User" documentTitle="User · Admin" subtitle="Members of the organizations you can see.">
      <Group justify="space-between" align="flex-end" gap="xs">
        <FilterForm label="Filter by name or email" placeholder="Name or email" value={filter} onFilter={setFilter} />
        <ExportCsvButton path="/api/members" request={{ filter: filter || undefined, sort }} name="members" />
      </Group>
      <PagedList query={users} noun="members" page={page} pageSize={pageSize} onPage={setPage}>
        {(items) => <DataTable label="Members" columns={COLUMNS} rows={items} rowKey={(m) => m.member_id} minWidth={0} sort={{ order, onSort: setSort }} />}
      </PagedList>
    </Page>
  );
}
