/**
 * The Organizations tab of a RESTRICTED resource: every organization with a "Granted" switch.
 * Switches are enabled for SUPERVISOR or ADMINISTRATOR of the operator, scope not MANAGED (SPEC.md §6).
 */
import { useMemo, useState } from 'react';
import { Table, Text } from '@mantine/core';
import { label } from '../../../../common/enums';
import type { Resource } from '../../../../common/schemas/resource';
import { ALL_ORGANIZATIONS, useOrganizations } from '../../../api/get-organizations';
import { WithBannedBadge } from '../../../components/BanNotice';
import { LiveFilterInput } from '../../../components/LiveFilterInput';
import { Loading } from '../../../components/Loading';
import { GrantSwitch } from './GrantSwitch';

export function ResourceOrganizationsTab({ resource, editable }: { resource: Resource; editable: boolean }) {
  const { data, isPending, isError } = useOrganizations(ALL_ORGANIZATIONS);
  const [filter, setFilter] = useState('');
  const granted = useMemo(() => new Set(resource.organizations.map((o) => o.organization_id)), [resource.organizations]);
  const shown = useMemo(() => {
    const text = filter.trim().toLowerCase();
    return (data?.items ?? []).filter((o) => !text || o.organization_name.toLowerCase().includes(text));
  }, [data, filter]);

  if (isPending) return <Loading />;
  if (isError && !data) return <Text>The organizations could not be loaded.</Text>;

  return (
    <>
      <Text size="sm">
        {granted.size === 0
          ? 'No organization may use this resource yet.'
          : `Granted to ${granted.size === 1 ? '1 organization' : `${granted.size} organizations`}.`}
        {editable ? '' : ' Granting needs a SUPERVISOR or ADMINISTRATOR role of the operator.'}
      </Text>
      <LiveFilterInput label="Filter organizations" placeholder="Organization name" value={filter} onChange={setFilter} />
      {shown.length === 0 ? (
        <Text>No organizations found.</Text>
      ) : (
        <Table.ScrollContainer minWidth={340}>
          <Table striped verticalSpacing="xs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">Organization</Table.Th>
                <Table.Th scope="col">Type</Table.Th>
                <Table.Th scope="col">Granted</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {shown.map((organization) => (
                <Table.Tr key={organization.organization_id}>
                  <Table.Td>
                    <WithBannedBadge banned={!!organization.date_organization_banned}>
                      <Text fw={600} size="sm">
                        {organization.organization_name}
                      </Text>
                    </WithBannedBadge>
                  </Table.Td>
                  <Table.Td>{label(organization.organization_role)}</Table.Td>
                  <Table.Td>
                    <GrantSwitch
                      resourceId={resource.resource_id}
                      organization={organization}
                      granted={granted.has(organization.organization_id)}
                      editable={editable}
                      label={`Granted to ${organization.organization_name}`}
                    />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </>
  );
}
