/**
 * An endpoint's actions on its page: Edit (the form's dialog), Rotate secret (confirmed; the new
 * secret shows once, the old one signs too for 24 hours) and Delete (confirmed; back to the list).
 */
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '@mantine/core';
import { IconKey, IconPencil, IconTrash } from '@tabler/icons-react';
import type { Webhook, WebhookBody } from '../../../../common/schemas/webhooks';
import { ConfirmModal } from '../../../components/ConfirmModal';
import { DANGER } from '../../../components/danger';
import { notifySuccess } from '../../../lib/notifications';
import { useDeleteWebhook, useRotateWebhookSecret, useSaveWebhook, type WebhookSecret } from '../api/webhook-mutations';
import { notificationsPath } from '../paths';
import { SecretModal } from './SecretModal';
import { WebhookFormModal } from './WebhookFormModal';

type Dialog = 'edit' | 'rotate' | 'delete' | null;

export function EndpointActions({ endpoint }: { endpoint: Webhook }) {
  const ref = { organizationId: endpoint.organization_id, endpointId: endpoint.endpoint_id };
  const [dialog, setDialog] = useState<Dialog>(null);
  const [secret, setSecret] = useState<WebhookSecret | null>(null);
  const save = useSaveWebhook();
  const rotate = useRotateWebhookSecret();
  const remove = useDeleteWebhook();
  const navigate = useNavigate();
  const close = () => setDialog(null);

  const submit = async (body: WebhookBody) => {
    await save.mutateAsync({ ...ref, body });
    notifySuccess(`Saved the webhook endpoint ${endpoint.url}.`);
    close();
  };

  const confirmRotate = () =>
    rotate.mutate(ref, {
      onSuccess: (answer) => {
        close();
        setSecret(answer);
      },
    });

  const confirmDelete = () =>
    remove.mutate(ref, {
      onSuccess: async () => {
        close();
        notifySuccess(`Deleted the webhook endpoint ${endpoint.url}.`);
        await navigate(notificationsPath(endpoint.organization_id, 'webhooks'), { replace: true });
      },
    });

  return (
    <>
      <Button variant="default" leftSection={<IconPencil size={16} aria-hidden />} onClick={() => setDialog('edit')}>
        Edit
      </Button>
      <Button variant="default" leftSection={<IconKey size={16} aria-hidden />} onClick={() => setDialog('rotate')}>
        Rotate secret
      </Button>
      <Button {...DANGER} leftSection={<IconTrash size={16} aria-hidden />} onClick={() => setDialog('delete')}>
        Delete
      </Button>
      <WebhookFormModal opened={dialog === 'edit'} endpoint={endpoint} onClose={close} onSubmit={submit} />
      <ConfirmModal opened={dialog === 'rotate'} onClose={close} title="Rotate the signing secret?" confirmLabel="Rotate secret" pending={rotate.isPending} onConfirm={confirmRotate}>
        A new secret signs every delivery from now on; the current one signs them too for 24 hours, so the receiver can switch over. The new
        secret is shown once.
      </ConfirmModal>
      <ConfirmModal opened={dialog === 'delete'} onClose={close} title="Delete webhook endpoint?" confirmLabel="Delete endpoint" pending={remove.isPending} onConfirm={confirmDelete}>
        Delete <strong>{endpoint.url}</strong>? It receives nothing more, and its delivery log is removed with it.
      </ConfirmModal>
      <SecretModal shown={secret} onClose={() => setSecret(null)} />
    </>
  );
}
