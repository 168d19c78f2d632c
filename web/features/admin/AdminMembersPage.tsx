/**
 * Admin: User (SPEC.md §2 "members"): the members of every organization the caller can read,
 * with organization, email and ban state; a filter by name or email. Each row opens the
 * member's details in their organization.
 */
import { Link } from 'react-router';
import { Anchor, Table } from '@mantine/core';
import type { Member } from '../../../common/schemas/member';
import { WithBannedBadge } from '../../components/BanNotice';
import { FilterForm } from '../../components/FilterForm';
import { Page } from '../../components/Page';
import { PagedList } from '../../components/PagedList';
import { StackedTable } from '../../components/StackedTable';
import { useListSearch } from '../../components/useListSearch';
import { memberDetailsPath } from '../../lib/navigation';
import { useUsers } from './members/api/get-users';

const PAGE_SIZE = 100;

function UserTable({ members }: { members: Member[] }) {
  return (
    <StackedTable striped highlightOnHover verticalSpacing="sm">
      <Table.Thead>
        <Table.Tr>
          <Table.Th scope="col">Name</Table.Th>
          <Table.Th scope="col">Organization</Table.Th>
          <Table.Th scope="col">Email</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {members.map((member) => (
          <Table.Tr key={member.member_id}>
            <Table.Td data-label="Name">
              <WithBannedBadge banned={!!member.date_member_banned}>
                <Anchor component={Link} to={memberDetailsPath(member.organization_id, member.member_id)} fw={600} className="break-anywhere">
                  {member.name}
                </Anchor>
              </WithBannedBadge>
            </Table.Td>
            <Table.Td data-label="Organization" className="break-anywhere">{member.organization_name}</Table.Td>
            <Table.Td data-label="Email" className="break-anywhere">{member.member_email}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </StackedTable>
  );
}

export default function AdminMembersPage() {
  const { filter, page, offset, setFilter, setPage } = useListSearch(PAGE_SIZE);
  const users = useUsers({ filter: filter || undefined, offset, limit: PAGE_SIZE });

  return (
    <Page title="User" documentTitle="User · Admin" subtitle="Members of the organizations you can see.">
      <FilterForm label="Filter by name or email" placeholder="Name or email" value={filter} onFilter={setFilter} />
      <PagedList query={users} noun="members" page={page} pageSize={PAGE_SIZE} onPage={setPage}>
        {(items) => <UserTable members={items} />}
      </PagedList>
    </Page>
  );
}
