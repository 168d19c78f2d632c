/**
 * Redeliver: the same payload again as a new delivery (a new webhook-id). Not offered while the
 * delivery is still being tried; the server refuses that too (409, a toast).
 */
import { Button } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import type { WebhookDelivery } from '../../../../common/schemas/webhooks';
import { notifySuccess } from '../../../lib/notifications';
import type { EndpointRef } from '../api/keys';
import { useRedeliverWebhook } from '../api/redeliver-webhook';
import { eventLabel } from '../components/event-groups';

export function RedeliverButton({ endpoint, delivery, onDone }: { endpoint: EndpointRef; delivery: WebhookDelivery; onDone?: () => void }) {
  const redeliver = useRedeliverWebhook();
  const pending = delivery.status === 'pending';
  const run = () =>
    redeliver.mutate(
      { ...endpoint, deliveryId: delivery.delivery_id },
      {
        onSuccess: () => {
          notifySuccess(`Queued “${eventLabel(delivery.event_type)}” for delivery again.`);
          onDone?.();
        },
      },
    );
  return (
    <Button
      variant="default"
      size="xs"
      leftSection={<IconRefresh size={14} aria-hidden />}
      onClick={run}
      loading={redeliver.isPending}
      disabled={pending}
      title={pending ? 'Still being tried' : undefined}
    >
      Redeliver
    </Button>
  );
}
