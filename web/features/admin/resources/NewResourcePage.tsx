/** Admin: new resource (SPEC.md §2). Afterwards the details of the new resource open. */
import { useNavigate } from 'react-router';
import { Alert } from '@mantine/core';
import { Page } from '../../../components/Page';
import { useActor } from '../../../lib/actor';
import { notifySuccess } from '../../../lib/notifications';
import { useCreateResource } from './api/create-resource';
import { resourcePath, RESOURCES_PATH } from './paths';
import { canEditResources } from './permissions';
import { ResourceForm } from './ResourceForm';

export default function NewResourcePage() {
  const actor = useActor();
  const navigate = useNavigate();
  const create = useCreateResource();

  return (
    <Page title="New resource" documentTitle="New resource · Admin" back={{ to: RESOURCES_PATH, list: 'resources' }}>
      {canEditResources(actor) ? (
        <ResourceForm
          resource={null}
          editable
          submitLabel="Create"
          onSubmit={async (input) => {
            const resource = await create.mutateAsync(input);
            notifySuccess(`Created resource ${resource.resource_name}.`);
            await navigate(resourcePath(resource.resource_id), { replace: true });
          }}
        />
      ) : (
        <Alert color="orange" variant="light" title="Not available to you">
          Only SUPERVISOR or DEVOPS staff of the operator add resources.
        </Alert>
      )}
    </Page>
  );
}
