/**
 * Resources of an organization (SPEC.md §2): read-only, the PUBLIC and DEFAULT resources and the
 * RESTRICTED ones granted to it (DECISIONS.md "Resources"). A table, one card per resource on phones.
 */
import { Code } from '@mantine/core';
import type { Resource } from '../../../common/schemas/resource';
import { RESOURCE_SORTS } from '../../../common/sorts';
import { useOrganizationResources } from '../../api/get-organization-resources';
import { DataTable, type DataColumn } from '../../components/DataTable';
import { Page } from '../../components/Page';
import { ExportCsvButton } from '../../components/ExportCsvButton';
import { QueryList } from '../../components/QueryList';
import { ResourceAccessBadge } from '../../components/ResourceAccessBadge';
import { RESOURCE_TYPE_LABELS } from '../../components/resource-labels';
import { useListSort } from '../../components/useListSearch';
import { useRouteOrganization } from '../../components/useRouteOrganization';
import classes from './ResourcesPage.module.css';

const COLUMNS: DataColumn<Resource>[] = [
  { header: 'Name', rowHeader: true, breakAnywhere: true, sort: 'resource_name', cell: (r) => r.resource_name },
  { header: 'Type', cell: (r) => RESOURCE_TYPE_LABELS[r.resource_type] },
  { header: 'Access', width: '130px', cell: (r) => <ResourceAccessBadge access={r.resource_access} /> },
  { header: 'Path pattern', cell: (r) => <Code className={classes.path}>{r.path_pattern}</Code> },
  { header: 'Description', breakAnywhere: true, cell: (r) => r.description || '-' },
];

export default function ResourcesPage() {
  const { orgId, organization } = useRouteOrganization();
  // The gateway's order (the ordinal) has no column here: the sort offers it by name.
  const { sort, order, setSort } = useListSort(RESOURCE_SORTS, 'ordinal');
  const resources = useOrganizationResources(orgId, { sort });

  return (
    <Page
      title="Resources"
      subtitle={organization ? `Downloads available to ${organization.organization_name}.` : '…'}
      actions={<ExportCsvButton path={`/api/organizations/${encodeURIComponent(orgId)}/resources`} request={{ sort }} name="resources" />}
    >
      <QueryList query={resources} noun="resources">
        {(data) => (
          <DataTable
            label="Resources"
            columns={COLUMNS}
            rows={data}
            rowKey={(r) => r.resource_id}
            minWidth={720}
            sort={{ order, onSort: setSort, usual: { order: 'ordinal', label: 'Gateway order' } }}
          />
        )}
      </QueryList>
    </Page>
  );
}
