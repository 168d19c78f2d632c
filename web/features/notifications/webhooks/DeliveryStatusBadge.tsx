/** A delivery's state as a badge: Delivered, Failed (for good), or Pending (still being tried). */
import { Badge } from '@mantine/core';
import type { WebhookDelivery } from '../../../../common/schemas/webhooks';

const STATUS = {
  delivered: { color: 'green', text: 'Delivered' },
  failed: { color: 'red', text: 'Failed' },
  pending: { color: 'orange', text: 'Pending' },
} as const;

export function DeliveryStatusBadge({ status }: { status: WebhookDelivery['status'] }) {
  const { color, text } = STATUS[status];
  return (
    <Badge color={color} variant="light" size="sm">
      {text}
    </Badge>
  );
}
