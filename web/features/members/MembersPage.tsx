/**
 * Members of an organization (SPEC.md §2 "/members"): filter by name or email, a page of
 * members with their roles, each linking to the member's details, sorted by name or email.
 */
import { useState } from 'react';
import { Link } from 'react-router';
import { Anchor, Button, Group } from '@mantine/core';
import { IconMailPlus } from '@tabler/icons-react';
import type { Member } from '../../../common/schemas/member';
import { MEMBER_SORTS } from '../../../common/sorts';
import { WithBannedBadge } from '../../components/BanNotice';
import { DataTable, type DataColumn } from '../../components/DataTable';
import { ExportCsvButton } from '../../components/ExportCsvButton';
import { FilterForm } from '../../components/FilterForm';
import { Page } from '../../components/Page';
import { PagedList } from '../../components/PagedList';
import { useListSearch, useListSort } from '../../components/useListSearch';
import { useRouteOrganization } from '../../components/useRouteOrganization';
import { memberDetailsPath } from '../../lib/navigation';
import { useMembers } from './api/get-members';
import { RoleBadges } from './components/RoleBadges';
import { usePageSize } from '../../lib/preferences';
import { useAllowedHere } from '../../lib/actor';
import { InviteModal } from './components/InviteModal';
import { Invitations } from './components/Invitations';

const columnsOf = (organizationId: string): DataColumn<Member>[] => [
  {
    header: 'Name',
    rowHeader: true,
    sort: 'name',
    cell: (m) => (
      <WithBannedBadge banned={!!m.date_member_banned}>
        <Anchor component={Link} to={memberDetailsPath(organizationId, m.member_id)} fw={600} className="break-anywhere">
          {m.name}
        </Anchor>
      </WithBannedBadge>
    ),
  },
  { header: 'Email', breakAnywhere: true, sort: 'member_email', cell: (m) => m.member_email },
  { header: 'Job role', cell: (m) => m.job_role || '-' },
  { header: 'Roles', cell: (m) => <RoleBadges roles={m.roles} organizationId={organizationId} /> },
];

export default function MembersPage() {
  const { orgId, organization } = useRouteOrganization();
  const [pageSize] = usePageSize();
  const { filter, page, offset, setFilter, setPage } = useListSearch(pageSize);
  const { sort, order, setSort } = useListSort(MEMBER_SORTS, 'name');
  const members = useMembers(orgId, { filter: filter || undefined, sort, offset, limit: pageSize });
  // Who may invite (common/policy.ts member.invite, in the organization's abilities) also sees the open invitations.
  const mayInvite = useAllowedHere('member.invite');
  const [inviting, setInviting] = useState(false);
  const actions = mayInvite ? (
    <Button leftSection={<IconMailPlus size={16} aria-hidden />} onClick={() => setInviting(true)}>
      Invite
    </Button>
  ) : null;

  return (
    <Page title="Members" subtitle={organization ? `People of ${organization.organization_name} and their roles.` : '…'} actions={actions}>
      <Group justify="space-between" align="flex-end" gap="xs">
        <FilterForm label="Filter by name or email" placeholder="Name or email" value={filter} onFilter={setFilter} />
        <ExportCsvButton path={`/api/organizations/${encodeURIComponent(orgId)}/members`} request={{ filter: filter || undefined, sort }} name="members" />
      </Group>
      <PagedList query={members} noun="members" page={page} pageSize={pageSize} onPage={setPage}>
        {(items) => (
          <DataTable label="Members" columns={columnsOf(orgId)} rows={items} rowKey={(m) => m.member_id} minWidth={0} sort={{ order, onSort: setSort }} />
        )}
      </PagedList>
      {mayInvite && organization ? (
        <>
          <Invitations organizationId={orgId} />
          <InviteModal
            opened={inviting}
            onClose={() => setInviting(false)}
            organizationId={orgId}
            organizationName={organization.organization_name}
            organizationRole={organization.organization_role}
          />
        </>
      ) : null}
    </Page>
  );
}
