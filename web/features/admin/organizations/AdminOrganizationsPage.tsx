/**
 * Admin: Organizations (SPEC.md §2): the organizations the caller may read with name, role,
 * website and ban state, a filter by name, sorted by name either way, and "New organization" for
 * those who may create one.
 */
import { Link } from 'react-router';
import { Anchor, Group, VisuallyHidden } from '@mantine/core';
import { IconExternalLink, IconPlus } from '@tabler/icons-react';
import { label } from '../../../../common/enums';
import { can, childOf } from '../../../../common/policy';
import { normalizeWebsite, type Organization } from '../../../../common/schemas/organization';
import { ORGANIZATION_SORTS } from '../../../../common/sorts';
import { useOrganizations } from '../../../api/get-organizations';
import { WithBannedBadge } from '../../../components/BanNotice';
import { ExportCsvButton } from '../../../components/ExportCsvButton';
import { FilterForm } from '../../../components/FilterForm';
import { DataTable, type DataColumn } from '../../../components/DataTable';
import { ButtonLink } from '../../../components/Link';
import { Page } from '../../../components/Page';
import { PagedList } from '../../../components/PagedList';
import { useListSearch, useListSort } from '../../../components/useListSearch';
import { useActor } from '../../../lib/actor';
import { adminOrganizationPath, newOrganizationPath } from './paths';
import { usePageSize } from '../../../lib/preferences';

function Website({ website }: { website: string | null }) {
  const link = website ? normalizeWebsite(website) : null;
  if (!link) return <>-</>;
  return (
    <Anchor href={link} target="_blank" rel="noopener noreferrer" size="sm" className="break-anywhere">
      <Group gap={4} component="span" wrap="nowrap">
        {link.replace(/^https?:\/\//, '').replace(/\/$/, '')}
        <IconExternalLink size={14} aria-hidden />
        <VisuallyHidden>(opens in a new tab)</VisuallyHidden>
      </Group>
    </Anchor>
  );
}

const COLUMNS: DataColumn<Organization>[] = [
  {
    header: 'Name',
    rowHeader: true,
    sort: 'organization_name',
    cell: (o) => (
      <WithBannedBadge banned={!!o.date_organization_banned}>
        <Anchor component={Link} to={adminOrganizationPath(o.organization_id)} fw={600} className="break-anywhere">
          {o.organization_name}
        </Anchor>
      </WithBannedBadge>
    ),
  },
  { header: 'Role', cell: (o) => label(o.organization_role) },
  { header: 'Website', cell: (o) => <Website website={o.website} /> },
];

export default function AdminOrganizationsPage() {
  const actor = useActor();
  const [pageSize] = usePageSize();
  const { filter, page, offset, setFilter, setPage } = useListSearch(pageSize);
  const { sort, order, setSort } = useListSort(ORGANIZATION_SORTS, 'organization_name');
  const organizations = useOrganizations({ filter: filter || undefined, sort, offset, limit: pageSize });
  // Creating places the organization below the member's own by default: may they act there?
  const canCreate = !!actor && can(actor, 'organization.create', childOf({ organization_id: actor.organization_id, ancestor_ids: [] }));

  return (
    <Page
      title="Organizations"
      documentTitle="Organizations · Admin"
      actions={
        canCreate ? (
          <ButtonLink to={newOrganizationPath} leftSection={<IconPlus size={16} aria-hidden />}>
            New organization
          </ButtonLink>
        ) : null
      }
    >
      <Group justify="space-between" align="flex-end" gap="xs">
        <FilterForm label="Filter by name" placeholder="Organization name" value={filter} onFilter={setFilter} />
        <ExportCsvButton path="/api/organizations" request={{ filter: filter || undefined, sort }} name="organizations" />
      </Group>
      <PagedList query={organizations} noun="organizations" page={page} pageSize={pageSize} onPage={setPage}>
        {(items) => (
          <DataTable label="Organizations" columns={COLUMNS} rows={items} rowKey={(o) => o.organization_id} minWidth={0} sort={{ order, onSort: setSort }} />
        )}
      </PagedList>
    </Page>
  );
}
