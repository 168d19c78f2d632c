/**
 * Admin: Resources (SPEC.md §2): every resource in ordinal order, filtered by text, linking to
 * the details; "New resource" for those who may add one (SPEC.md §6).
 */
import { useState } from 'react';
import { Link } from 'react-router';
import { Anchor, Code, Table, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconPlus } from '@tabler/icons-react';
import type { Resource } from '../../../../common/schemas/resource';
import { ButtonLink } from '../../../components/Link';
import { LiveFilterInput } from '../../../components/LiveFilterInput';
import { Page } from '../../../components/Page';
import { QueryList } from '../../../components/QueryList';
import { ResourceAccessBadge } from '../../../components/ResourceAccessBadge';
import { RESOURCE_TYPE_LABELS } from '../../../components/resource-labels';
import { useActor } from '../../../lib/actor';
import { useResources } from './api/get-resources';
import { canEditResources } from './permissions';
import { resourcePath, NEW_RESOURCE_PATH } from './paths';

function ResourceTable({ resources }: { resources: Resource[] }) {
  return (
    <Table.ScrollContainer minWidth={680}>
      <Table striped highlightOnHover verticalSpacing="sm">
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col" ta="right" w={90}>
              Ordinal
            </Table.Th>
            <Table.Th scope="col">Name</Table.Th>
            <Table.Th scope="col">Path pattern</Table.Th>
            <Table.Th scope="col">Type</Table.Th>
            <Table.Th scope="col" w={130}>
              Access
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {resources.map((resource) => (
            <Table.Tr key={resource.resource_id}>
              <Table.Td ta="right">{resource.ordinal}</Table.Td>
              <Table.Td>
                <Anchor component={Link} to={resourcePath(resource.resource_id)} fw={600}>
                  {resource.resource_name}
                </Anchor>
              </Table.Td>
              <Table.Td>
                <Code style={{ whiteSpace: 'nowrap' }}>{resource.path_pattern}</Code>
              </Table.Td>
              <Table.Td>{RESOURCE_TYPE_LABELS[resource.resource_type]}</Table.Td>
              <Table.Td>
                <ResourceAccessBadge access={resource.resource_access} />
                {resource.resource_access === 'RESTRICTED' ? (
                  <Text size="xs" c="dimmed" mt={2}>
                    {resource.organizations.length === 1 ? '1 organization' : `${resource.organizations.length} organizations`}
                  </Text>
                ) : null}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

export default function AdminResourcesPage() {
  const actor = useActor();
  const [filter, setFilter] = useState('');
  const [debounced] = useDebouncedValue(filter.trim(), 300);
  const resources = useResources(debounced || undefined);

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
      <LiveFilterInput label="Filter" placeholder="Name or path pattern" value={filter} onChange={setFilter} />
      <QueryList query={resources} noun="resources">
        {(data) => <ResourceTable resources={data} />}
      </QueryList>
    </Page>
  );
}
