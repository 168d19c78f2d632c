/**
 * Members of an organization (SPEC.md §2 "/members"): filter by name or email, a page of
 * members with their roles, each linking to the member's details.
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
import { useRouteOrganization } from '../../components/useRouteOrganization';
import { memberDetailsPath } from '../../lib/navigation';
import { useMembers } from './api/get-members';
import { RoleBadges } from './components/RoleBadges';

export const MEMBERS_PAGE_SIZE = 100;

function MemberTable({ organizationId, members }: { organizationId: string; members: Member[] }) {
  return (
    <StackedTable striped highlightOnHover verticalSpacing="sm">
      <Table.Thead>
        <Table.Tr>
          <Table.Th scope="col">Name</Table.Th>
          <Table.Th scope="col">Email</Table.Th>
          <Table.Th scope="col">Job role</Table.Th>
          <Table.Th scope="col">Roles</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {members.map((member) => (
          <Table.Tr key={member.member_id}>
            <Table.Td data-label="Name">
              <WithBannedBadge banned={!!member.date_member_banned}>
                <Anchor component={Link} to={memberDetailsPath(organizationId, member.member_id)} fw={600} className="break-anywhere">
                  {member.name}
                </Anchor>
              </WithBannedBadge>
            </Table.Td>
            <Table.Td data-label="Email" className="break-anywhere">{member.member_email}</Table.Td>
            <Table.Td data-label="Job role">{member.job_role || '-'}</Table.Td>
            <Table.Td data-label="Roles">
              <RoleBadges roles={member.roles} organizationId={organizationId} />
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </StackedTable>
  );
}

export default function MembersPage() {
  const { orgId, organization } = useRouteOrganization();
  const { filter, page, offset, setFilter, setPage } = useListSearch(MEMBERS_PAGE_SIZE);
  const members = useMembers(orgId, { filter: filter || undefined, offset, limit: MEMBERS_PAGE_SIZE });

  return (
    <Page title="Members" subtitle={organization ? `People of ${organization.organization_name} and their roles.` : '…'}>
      <FilterForm label="Filter by name or email" placeholder="Name or email" value={filter} onFilter={setFilter} />
      <PagedList query={members} noun="members" page={page} pageSize={MEMBERS_PAGE_SIZE} onPage={setPage}>
        {(items) => <MemberTable organizationId={orgId} members={items} />}
      </PagedList>
    </Page>
  );
}
