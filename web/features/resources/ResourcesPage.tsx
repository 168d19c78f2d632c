/**
 * Resources of an organization (SPEC.md §2): read-only, the PUBLIC and DEFAULT resources and the
 * RESTRICTED ones granted to it (DECISIONS.md "Resources"). A table, or cards on phones.
 */
import { Code, Group, Stack, Table, Text } from '@mantine/core';
import type { Resource } from '../../../common/schemas/resource';
import { useOrganizationResources } from '../../api/get-organization-resources';
import { CardList, ListCard } from '../../components/CardList';
import { Page } from '../../components/Page';
import { QueryList } from '../../components/QueryList';
import { ResourceAccessBadge } from '../../components/ResourceAccessBadge';
import { RESOURCE_TYPE_LABELS } from '../../components/resource-labels';
import { scrollRegion } from '../../components/scroll-region';
import { usePhone } from '../../components/usePhone';
import { useRouteOrganization } from '../../components/useRouteOrganization';

function ResourceTable({ resources }: { resources: Resource[] }) {
  return (
    <Table.ScrollContainer minWidth={720} scrollAreaProps={scrollRegion('Resources')}>
      <Table striped verticalSpacing="sm">
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Name</Table.Th>
            <Table.Th scope="col">Type</Table.Th>
            <Table.Th scope="col" w={130}>
              Access
            </Table.Th>
            <Table.Th scope="col">Path pattern</Table.Th>
            <Table.Th scope="col">Description</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {resources.map((resource) => (
            <Table.Tr key={resource.resource_id}>
              <Table.Td fw={600}>{resource.resource_name}</Table.Td>
              <Table.Td>{RESOURCE_TYPE_LABELS[resource.resource_type]}</Table.Td>
              <Table.Td>
                <ResourceAccessBadge access={resource.resource_access} />
              </Table.Td>
              <Table.Td>
                <Code style={{ whiteSpace: 'nowrap' }}>{resource.path_pattern}</Code>
              </Table.Td>
              <Table.Td className="break-anywhere">{resource.description || '-'}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** Phones: one card per resource instead of a table wider than the screen. */
function ResourceCards({ resources }: { resources: Resource[] }) {
  return (
    <CardList>
      {resources.map((resource) => (
        <ListCard key={resource.resource_id}>
          <Stack gap={6}>
            <Group justify="space-between" gap="xs" wrap="nowrap" align="flex-start">
              <Text fw={600} className="break-anywhere">
                {resource.resource_name}
              </Text>
              <ResourceAccessBadge access={resource.resource_access} />
            </Group>
            <Text size="sm">{RESOURCE_TYPE_LABELS[resource.resource_type]}</Text>
            <Code className="break-anywhere" w="fit-content" maw="100%">
              {resource.path_pattern}
            </Code>
            {resource.description ? (
              <Text size="sm" c="dimmed" className="break-anywhere">
                {resource.description}
              </Text>
            ) : null}
          </Stack>
        </ListCard>
      ))}
    </CardList>
  );
}

export default function ResourcesPage() {
  const { orgId, organization } = useRouteOrganization();
  const resources = useOrganizationResources(orgId);
  const phone = usePhone();

  return (
    <Page title="Resources" subtitle={organization ? `Downloads available to ${organization.organization_name}.` : '…'}>
      <QueryList query={resources} noun="resources">
        {(data) => (phone ? <ResourceCards resources={data} /> : <ResourceTable resources={data} />)}
      </QueryList>
    </Page>
  );
}
