/**
 * The Organizations tab of a RESTRICTED resource: the organizations with a "Granted" switch, found
 * by name on the server (a page of them, the total told), so a vendor with thousands of customers
 * reaches every one. Switches are enabled for SUPERVISOR or ADMINISTRATOR of the operator, scope
 * not MANAGED (SPEC.md §6).
 */
import { useMemo, useState } from 'react';
import { Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { label } from '../../../../common/enums';
import type { Organization } from '../../../../common/schemas/organization';
import type { Resource } from '../../../../common/schemas/resource';
import { useOrganizations } from '../../../api/get-organizations';
import { WithBannedBadge } from '../../../components/BanNotice';
import { DataTable, type DataColumn } from '../../../components/DataTable';
import { LiveFilterInput } from '../../../components/LiveFilterInput';
import { Loading } from '../../../components/Loading';
import { GrantSwitch } from './GrantSwitch';

/** The organizations one search shows; a narrower filter finds the others. */
const SHOWN = 100;

export function ResourceOrganizationsTab({ resource, editable }: { resource: Resource; editable: boolean }) {
  const [filter, setFilter] = useState('');
  const [debounced] = useDebouncedValue(filter.trim(), 300);
  const { data, isPending, isError } = useOrganizations({ filter: debounced || undefined, limit: SHOWN });
  const granted = useMemo(() => new Set(resource.organizations.map((o) => o.organization_id)), [resource.organizations]);
  const columns = useMemo<DataColumn<Organization>[]>(
    () => [
      {
        header: 'Organization',
        rowHeader: true,
        breakAnywhere: true,
        cell: (o) => <WithBannedBadge banned={!!o.date_organization_banned}>{o.organization_name}</WithBannedBadge>,
      },
      { header: 'Type', cell: (o) => label(o.organization_role) },
      {
        header: 'Granted',
        cell: (o) => (
          <GrantSwitch
            resourceId={resource.resource_id}
            resourceName={resource.resource_name}
            organization={o}
            granted={granted.has(o.organization_id)}
            editable={editable}
            label={`Granted to ${o.organization_name}`}
          />
        ),
      },
    ],
    [resource.resource_id, resource.resource_name, granted, editable],
  );

  return (
    <>
      <Text size="sm">
        {granted.size === 0
          ? 'No organization may use this resource yet.'
          : `Granted to ${granted.size === 1 ? '1 organization' : `${granted.size} organizations`}.`}
        {editable ? '' : ' Granting needs a SUPERVISOR or ADMINISTRATOR role of the operator.'}
      </Text>
      <LiveFilterInput label="Filter organizations" placeholder="Organization name" value={filter} onChange={setFilter} />
      {isPending ? (
        <Loading />
      ) : isError && !data ? (
        <Text>The organizations could not be loaded.</Text>
      ) : !data || data.items.length === 0 ? (
        <Text>No organizations found.</Text>
      ) : (
        <>
          <DataTable label="Organizations" columns={columns} rows={data.items} rowKey={(o) => o.organization_id} minWidth={340} dense />
          {data.total > data.items.length ? (
            <Text size="sm" c="dimmed">
              Showing {data.items.length} of {data.total.toLocaleString('en-US')} organizations: narrow the filter to find the others.
            </Text>
          ) : null}
        </>
      )}
    </>
  );
}
