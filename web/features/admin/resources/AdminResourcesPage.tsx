/**
 * Admin: Resources (SPEC.md §2): every resource in ordinal order (or by name), filtered by text,
 * linking to the details; "New resource" for those who may add one (SPEC.md §6). The one list table
 * (components/DataTable), so it sorts like every list and is one card per resource on phones.
 */
import { useState } from 'react';
import { Link } from 'react-router';
import { Anchor, Box, Code, Group, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconPlus } from '@tabler/icons-react';
import type { Resource } from '../../../../common/schemas/resource';
import { RESOURCE_SORTS } from '../../../../common/sorts';
import { DataTable, type DataColumn } from '../../../components/DataTable';
import { ButtonLink } from '../../../components/Link';
import { ExportCsvButton } from '../../../components/ExportCsvButton';
import { LiveFilterInput } from '../../../components/LiveFilterInput';
import { Page } from '../../../components/Page';
import { QueryList } from '../../../components/QueryList';
import { ResourceAccessBadge } from '../../../components/ResourceAccessBadge';
import { RESOURCE_TYPE_LABELS } from '../../../components/resource-labels';
import { useListSort } from '../../../components/useListSearch';
import { useActor } from '../../../lib/actor';
import { useResources } from './api/get-resources';
import { canEditResources } from './permissions';
import { resourcePath, NEW_RESOURCE_PATH } from './paths';

/** Ordinal, name (linking to the details), path pattern, type and access, sorted by ordinal or name. */
const COLUMNS: DataColumn<Resource>[] = [
  { header: 'Ordinal', align: 'end', width: '90px', sort: 'ordinal', cell: (r) => r.ordinal },
  {
    header: 'Name',
    rowHeader: true,
    sort: 'resource_name',
    cell: (r) => (
      <Anchor component={Link} to={resourcePath(r.resource_id)} fw={600} className="break-anywhere">
        {r.resource_name}
      </Anchor>
    ),
  },
  { header: 'Path pattern', nowrap: true, breakAnywhere: true, cell: (r) => <Code>{r.path_pattern}</Code> },
  { header: 'Type', cell: (r) => RESOURCE_TYPE_LABELS[r.resource_type] },
  {
    header: 'Access',
    width: '130px',
    cell: (r) => (
      <>
        <ResourceAccessBadge access={r.resource_access} />
        {r.resource_access === 'RESTRICTED' ? (
          <Text size="xs" c="dimmed" mt={2}>
            {r.organizations.length === 1 ? '1 organization' : `${r.organizations.length} organizations`}
          </Text>
        ) : null}
      </>
    ),
  },
];

export default function AdminResourcesPage() {
  const actor = useActor();
  const [filter, setFilter] = useState('');
  const [debounced] = useDebouncedValue(filter.trim(), 300);
  const { sort, order, setSort } = useListSort(RESOURCE_SORTS, 'ordinal');
  const resources = useResources(debounced || undefined, { sort });

  return (
    <Page
      title="Resources"
      documentTitle="Resources · Admin"
      subtitle="Downloads of the gateway, in the order of its routes."
      actions={
        canEditResources(actor) ? (
          <ButtonLink to={NEW_RESOURCE_PATH} leftSection={<IconPlus size={16} aria-hidden />}>
            New resource
          </ButtonLink>
        ) : null
      }
    >
      <Group justify="space-between" align="flex-end" gap="xs">
        <Box flex={1} maw={360}>
          <LiveFilterInput label="Filter" placeholder="Name or path pattern" value={filter} onChange={setFilter} />
        </Box>
        <ExportCsvButton path="/api/resources" request={{ filter: debounced || undefined, sort }} name="resources" />
      </Group>
      <QueryList query={resources} noun="resources">
        {(data) => <DataTable label="Resources" columns={COLUMNS} rows={data} rowKey={(r) => r.resource_id} minWidth={680} sort={{ order, onSort: setSort }} />}
      </QueryList>
    </Page>
  );
}
