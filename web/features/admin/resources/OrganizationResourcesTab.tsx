/**
 * The Resources tab of the admin organization details (SPEC.md §2), self-contained for that page
 * to mount: every resource, with a switch per RESTRICTED one (granted to this organization or
 * not) and PUBLIC/DEFAULT ones shown as always available. The switches are enabled for operator
 * staff whose SUPERVISOR or DEVOPS role applies to the organization (SPEC.md §6 "toggle an
 * organization's resource access"). Others see what the organization may use, read-only.
 */
import { Code, Stack, Text } from '@mantine/core';
import type { Organization } from '../../../../common/schemas/organization';
import type { Resource } from '../../../../common/schemas/resource';
import { useOrganization } from '../../../api/get-organization';
import { useOrganizationResources } from '../../../api/get-organization-resources';
import { AnchorLink } from '../../../components/Link';
import { Loading } from '../../../components/Loading';
import { ResourceAccessBadge } from '../../../components/ResourceAccessBadge';
import { RESOURCE_TYPE_LABELS } from '../../../components/resource-labels';
import { DataTable, type DataColumn } from '../../../components/DataTable';
import { useActor } from '../../../lib/actor';
import { useResources } from './api/get-resources';
import { GrantSwitch } from './GrantSwitch';
import { resourcePath } from './paths';
import { canManageResources, canToggleOrganization } from './permissions';

interface RowsProps {
  organization: Organization;
  resources: Resource[];
  /** Whether a RESTRICTED resource is granted to this organization. */
  isGranted: (resource: Resource) => boolean;
  editable: boolean;
  /** Not operator staff: the list holds only what the organization may use, without switches. */
  readOnlyList: boolean;
}

/**
 * The one list table (DataTable): a table on wider screens, one card per resource on phones, where the five
 * columns of a table were clipped at 390 px (issue 34) inside a box that scrolled sideways without a cue.
 */
function ResourceRows({ organization, resources, isGranted, editable, readOnlyList }: RowsProps) {
  const columns: DataColumn<Resource>[] = [
    {
      header: 'Name', rowHeader: true, breakAnywhere: true,
      cell: (r) => (readOnlyList ? r.resource_name : <AnchorLink to={resourcePath(r.resource_id)}>{r.resource_name}</AnchorLink>),
    },
    {
      header: 'Available',
      cell: (r) => r.resource_access !== 'RESTRICTED' ? (
        <Text size="sm" c="dimmed">Always available</Text>
      ) : readOnlyList ? (
        <Text size="sm">Granted</Text>
      ) : (
        <GrantSwitch
          resourceId={r.resource_id}
          resourceName={r.resource_name}
          organization={organization}
          granted={isGranted(r)}
          editable={editable}
          label={`${r.resource_name} granted to ${organization.organization_name}`}
        />
      ),
    },
    { header: 'Access', width: '130px', cell: (r) => <ResourceAccessBadge access={r.resource_access} /> },
    { header: 'Type', cell: (r) => RESOURCE_TYPE_LABELS[r.resource_type] },
    { header: 'Path pattern', breakAnywhere: true, cell: (r) => <Code>{r.path_pattern}</Code> },
  ];
  return <DataTable label="Resources of the organization" columns={columns} rows={resources} rowKey={(r) => r.resource_id} minWidth={640} dense />;
}

export function OrganizationResourcesTab({ organizationId }: { organizationId: string }) {
  const actor = useActor();
  // Those who manage resources see the whole catalogue with its grants; others what the organization may use.
  const staff = canManageResources(actor);
  const organization = useOrganization(organizationId);
  const all = useResources(undefined, { enabled: staff });
  const own = useOrganizationResources(organizationId, { enabled: !staff });
  const resources = staff ? all : own;

  if (organization.isPending || resources.isPending) return <Loading label="Loading resources…" />;
  if (!organization.data || !resources.data) return <Text>The resources could not be loaded.</Text>;
  if (resources.data.length === 0) return <Text>No resources found.</Text>;

  const editable = canToggleOrganization(actor, organization.data);
  const isGranted = (resource: Resource) => resource.organizations.some((o) => o.organization_id === organizationId);

  return (
    <Stack gap="sm">
      <Text size="sm" c="dimmed">
        {editable
          ? `Restricted resources are used only by the organizations granted them; switch one on to grant it to ${organization.data.organization_name}.`
          : staff
            ? 'Granting restricted resources needs a SUPERVISOR or DEVOPS role for this organization.'
            : `The resources ${organization.data.organization_name} may use.`}
      </Text>
      <ResourceRows
        organization={organization.data}
        resources={resources.data}
        isGranted={isGranted}
        editable={editable}
        readOnlyList={!staff}
      />
    </Stack>
  );
}
