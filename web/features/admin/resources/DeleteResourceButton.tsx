/** Delete with a confirmation dialog; afterwards back to the list. */
import { useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { Button } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconTrash } from '@tabler/icons-react';
import type { Resource } from '../../../../common/schemas/resource';
import { ConfirmModal } from '../../../components/ConfirmModal';
import { DANGER } from '../../../components/danger';
import { notifySuccess } from '../../../lib/notifications';
import { useDeleteResource } from './api/delete-resource';
import { resourceQueryOptions } from './api/get-resource';
import { RESOURCES_PATH } from './paths';

export function DeleteResourceButton({ resource }: { resource: Resource }) {
  const [opened, { open, close }] = useDisclosure(false);
  const remove = useDeleteResource(resource.resource_id);
  const navigate = useNavigate();
  const queryClient = useQueryClient();

  const confirm = () =>
    remove.mutate(undefined, {
      onSuccess: async () => {
        close();
        notifySuccess(`Deleted resource ${resource.resource_name}.`);
        await navigate(RESOURCES_PATH, { replace: true });
        queryClient.removeQueries({ queryKey: resourceQueryOptions(resource.resource_id).queryKey });
      },
    });

  return (
    <>
      <Button {...DANGER} leftSection={<IconTrash size={16} aria-hidden />} onClick={open}>
        Delete
      </Button>
      <ConfirmModal opened={opened} onClose={close} title="Delete resource?" confirmLabel="Delete resource" pending={remove.isPending} onConfirm={confirm}>
        Delete <strong>{resource.resource_name}</strong> ({resource.path_pattern})? The gateway stops serving it with its next
        routes file, and its grants are removed.
      </ConfirmModal>
    </>
  );
}
