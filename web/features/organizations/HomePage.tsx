/**
 * Self-Service (/organizations): the organizations the signed-in member may see, their roles
 * in each, and links to each organization's sections (SPEC.md §2).
 */
import { useState } from 'react';
import { Link } from 'react-router';
import { Anchor, Badge, Group, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import type { Organization } from '../../../common/schemas/organization';
import { ORGANIZATION_SORTS } from '../../../common/sorts';
import { label } from '../../../common/enums';
import { ALL_ORGANIZATIONS, useOrganizations } from '../../api/get-organizations';
import { WithBannedBadge } from '../../components/BanNotice';
import { DataTable, type DataColumn } from '../../components/DataTable';
import { LiveFilterInput } from '../../components/LiveFilterInput';
import { Page } from '../../components/Page';
import { QueryList } from '../../components/QueryList';
import { useListSort } from '../../components/useListSearch';
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

/** The columns; opening an organization from a link makes it the current one (onOpen). */
const columnsOf = (onOpen: (organization: Organization) => void): DataColumn<Organization>[] => [
  { header: 'Organization', rowHeader: true, sort: 'organization_name', cell: (o) => <OrganizationName organization={o} onOpen={() => onOpen(o)} /> },
  { header: 'Type', cell: (o) => label(o.organization_role) },
  { header: 'Your roles', cell: (o) => <Roles organization={o} /> },
  { header: 'Sections', cell: (o) => <SectionLinks organization={o} onOpen={() => onOpen(o)} /> },
];

// Opening an organization from here makes it the current one at once (its roles included).
const COLUMNS = columnsOf((organization) => session.setOrganization(organization));

export default function HomePage() {
  const [filter, setFilter] = useState('');
  const [debounced] = useDebouncedValue(filter.trim(), 300);
  const { sort, order, setSort } = useListSort(ORGANIZATION_SORTS, 'organization_name');
  const organizations = useOrganizations({ ...ALL_ORGANIZATIONS, filter: debounced || undefined, sort });

  return (
    <Page title="Self-Service" subtitle="Your organizations and your roles in them.">
      <LiveFilterInput label="Filter by name" placeholder="Organization name" value={filter} onChange={setFilter} />
      <QueryList query={organizations} noun="organizations">
        {({ items, total }) => (
          <>
            <DataTable label="Organizations" columns={COLUMNS} rows={items} rowKey={(o) => o.organization_id} minWidth={640} sort={{ order, onSort: setSort }} />
            <Text size="sm" c="dimmed">
              {total === items.length ? `${total} organization${total === 1 ? '' : 's'}` : `Showing ${items.length} of ${total} organizations`}
            </Text>
          </>
        )}
      </QueryList>
    </Page>
  );
}
