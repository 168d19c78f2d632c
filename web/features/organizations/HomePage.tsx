/**
 * Self-Service (/organizations): the organizations the signed-in member may see, their roles
 * in each, and links to each organization's sections (SPEC.md §2).
 */
import { useState } from 'react';
import { Link } from 'react-router';
import { Anchor, Badge, Group, Stack, Table, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import type { Organization } from '../../../common/schemas/organization';
import { label } from '../../../common/enums';
import { ALL_ORGANIZATIONS, useOrganizations } from '../../api/get-organizations';
import { WithBannedBadge } from '../../components/BanNotice';
import { CardList, ListCard } from '../../components/CardList';
import { LiveFilterInput } from '../../components/LiveFilterInput';
import { Page } from '../../components/Page';
import { QueryList } from '../../components/QueryList';
import { usePhone } from '../../components/usePhone';
import { ORGANIZATION_SECTIONS, organizationPath } from '../../lib/navigation';
import { session } from '../../lib/session';

function Roles({ organization }: { organization: Organization }) {
  if (organization.roles.length === 0) return <Text size="sm">-</Text>;
  return (
    <Group gap={4} wrap="wrap">
      {organization.roles.map((role) => (
        <Badge key={`${role.organization_id}|${role.role}|${role.scope}`} variant="light" size="sm">
          {label(role.role)} · {label(role.scope)}
        </Badge>
      ))}
    </Group>
  );
}

function OrganizationName({ organization, onOpen }: { organization: Organization; onOpen: () => void }) {
  return (
    <WithBannedBadge banned={!!organization.date_organization_banned}>
      <Anchor component={Link} to={organizationPath(organization.organization_id)} onClick={onOpen} fw={600}>
        {organization.organization_name}
      </Anchor>
    </WithBannedBadge>
  );
}

function SectionLinks({ organization, onOpen }: { organization: Organization; onOpen: () => void }) {
  return (
    <Group gap="sm" wrap="wrap">
      {ORGANIZATION_SECTIONS.map((section) => (
        <Anchor
          key={section.path}
          component={Link}
          to={organizationPath(organization.organization_id, section.path)}
          onClick={onOpen}
          size="sm"
          aria-label={`${section.label} of ${organization.organization_name}`}
        >
          {section.label}
        </Anchor>
      ))}
    </Group>
  );
}

interface ListProps {
  organizations: Organization[];
  onOpen: (organization: Organization) => void;
}

function OrganizationTable({ organizations, onOpen }: ListProps) {
  return (
    <Table.ScrollContainer minWidth={640}>
      <Table striped highlightOnHover verticalSpacing="sm">
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Organization</Table.Th>
            <Table.Th scope="col">Type</Table.Th>
            <Table.Th scope="col">Your roles</Table.Th>
            <Table.Th scope="col">Sections</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {organizations.map((organization) => (
            <Table.Tr key={organization.organization_id}>
              <Table.Td>
                <OrganizationName organization={organization} onOpen={() => onOpen(organization)} />
              </Table.Td>
              <Table.Td>{label(organization.organization_role)}</Table.Td>
              <Table.Td>
                <Roles organization={organization} />
              </Table.Td>
              <Table.Td>
                <SectionLinks organization={organization} onOpen={() => onOpen(organization)} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** Phones: one card per organization instead of a table wider than the screen. */
function OrganizationCards({ organizations, onOpen }: ListProps) {
  return (
    <CardList>
      {organizations.map((organization) => (
        <ListCard key={organization.organization_id}>
          <Stack gap="xs">
            <OrganizationName organization={organization} onOpen={() => onOpen(organization)} />
            <Text size="sm">{label(organization.organization_role)}</Text>
            <Roles organization={organization} />
            <SectionLinks organization={organization} onOpen={() => onOpen(organization)} />
          </Stack>
        </ListCard>
      ))}
    </CardList>
  );
}

export default function HomePage() {
  const [filter, setFilter] = useState('');
  const [debounced] = useDebouncedValue(filter.trim(), 300);
  const organizations = useOrganizations({ ...ALL_ORGANIZATIONS, filter: debounced || undefined });
  const phone = usePhone();
  // Opening an organization from here makes it the current one at once (its roles included).
  const open = (organization: Organization) => session.setOrganization(organization);

  return (
    <Page title="Self-Service" subtitle="Your organizations and your roles in them.">
      <LiveFilterInput label="Filter by name" placeholder="Organization name" value={filter} onChange={setFilter} />
      <QueryList query={organizations} noun="organizations">
        {({ items, total }) => (
          <>
            {phone ? <OrganizationCards organizations={items} onOpen={open} /> : <OrganizationTable organizations={items} onOpen={open} />}
            <Text size="sm" c="dimmed">
              {total === items.length ? `${total} organization${total === 1 ? '' : 's'}` : `Showing ${items.length} of ${total} organizations`}
            </Text>
          </>
        )}
      </QueryList>
    </Page>
  );
}
