/**
 * Admin: resource details (SPEC.md §2) with the tabs 'Resource' (the form; Save and Delete for
 * SUPERVISOR or DEVOPS, read-only otherwise) and 'Organizations' (grants; only for RESTRICTED
 * resources). The active tab is kept in the URL hash, as on the member details.
 */
import { useLocation, useNavigate, useParams } from 'react-router';
import { Group, Stack, Tabs, Text } from '@mantine/core';
import type { Resource } from '../../../../common/schemas/resource';
import { Loading } from '../../../components/Loading';
import { NotFound } from '../../../components/NotFound';
import { Page } from '../../../components/Page';
import { ResourceAccessBadge } from '../../../components/ResourceAccessBadge';
import { RESOURCE_ACCESS_LABELS, RESOURCE_TYPE_LABELS } from '../../../components/resource-labels';
import { notifySuccess } from '../../../lib/notifications';
import { useResource } from './api/get-resource';
import { useUpdateResource } from './api/update-resource';
import { DeleteResourceButton } from './DeleteResourceButton';
import { RESOURCES_PATH } from './paths';
import { ResourceForm } from './ResourceForm';
import { ResourceOrganizationsTab } from './ResourceOrganizationsTab';
import { canManageResources } from './permissions';
import { useActor } from '../../../lib/actor';

const TABS = ['resource', 'organizations'] as const;
type Tab = (typeof TABS)[number];

function ResourceTab({ resource, editable }: { resource: Resource; editable: boolean }) {
  const update = useUpdateResource(resource.resource_id);
  return (
    <Stack gap="md">
      {editable ? null : (
        <Text size="sm" c="dimmed">
          Read-only: SUPERVISOR or DEVOPS staff of the operator change resources.
        </Text>
      )}
      {resource.resource_access === 'RESTRICTED' ? null : (
        <Text size="sm" c="dimmed">
          {RESOURCE_ACCESS_LABELS[resource.resource_access]} resources are available to every organization that is not
          banned; only restricted ones are granted per organization.
        </Text>
      )}
      <ResourceForm
        // A saved resource starts the form afresh with what the server kept (grants aside).
        key={JSON.stringify({ ...resource, organizations: undefined })}
        resource={resource}
        editable={editable}
        submitLabel="Save"
        onSubmit={async (input) => {
          const saved = await update.mutateAsync(input);
          notifySuccess(`Saved resource ${saved.resource_name}.`);
        }}
        actions={editable ? <DeleteResourceButton resource={resource} /> : null}
      />
    </Stack>
  );
}

export default function ResourceDetailsPage() {
  const { resourceId = '' } = useParams();
  const { hash } = useLocation();
  const navigate = useNavigate();
  const { data: resource, isPending, isError } = useResource(resourceId);
  const actor = useActor();

  // The grants are shown to those who manage resources only (the server sends others none).
  const restricted = resource?.resource_access === 'RESTRICTED' && canManageResources(actor);
  const requested = hash.slice(1) as Tab;
  const tab: Tab = TABS.includes(requested) && (requested !== 'organizations' || restricted) ? requested : 'resource';

  if (isPending) return <Loading />;
  if (isError || !resource) return <NotFound what="resource" back={{ to: RESOURCES_PATH, label: 'Back to resources' }} />;

  return (
    <Page
      back={{ to: RESOURCES_PATH, list: 'resources' }}
      title={resource.resource_name}
      documentTitle={`${resource.resource_name} · Resources · Admin`}
      subtitle={
        <Group gap="sm" component="span" wrap="wrap">
          <ResourceAccessBadge access={resource.resource_access} />
          <span>{RESOURCE_TYPE_LABELS[resource.resource_type]}</span>
        </Group>
      }
    >
      <Tabs value={tab} onChange={(value) => void navigate({ hash: value ?? '' }, { replace: true })} keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="resource">Resource</Tabs.Tab>
          <Tabs.Tab value="organizations" disabled={!restricted}>
            Organizations{restricted ? ` (${resource.organizations.length})` : ''}
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="resource" pt="md">
          <ResourceTab resource={resource} editable={resource.abilities.includes('resource.update')} />
        </Tabs.Panel>
        <Tabs.Panel value="organizations" pt="md">
          {restricted ? (
            <Stack gap="md">
              <ResourceOrganizationsTab resource={resource} editable={resource.abilities.includes('resource.grant')} />
            </Stack>
          ) : null}
        </Tabs.Panel>
      </Tabs>
    </Page>
  );
}
