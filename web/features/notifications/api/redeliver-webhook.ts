/**
 * POST …/webhooks/{endpointId}/deliveries/{deliveryId}/redeliver: the same payload again as a new
 * delivery (a new webhook-id). The server answers 409 while the delivery is still pending.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { WebhookDelivery } from '../../../../common/schemas/webhooks';
import { api } from '../../../lib/api';
import { notificationKeys, webhookApiPath, type EndpointRef } from './keys';

function redeliver({ organizationId, endpointId, deliveryId }: EndpointRef & { deliveryId: string }) {
  return api<WebhookDelivery>(`${webhookApiPath(organizationId, endpointId)}/deliveries/${encodeURIComponent(deliveryId)}/redeliver`, { method: 'POST' });
}

export function useRedeliverWebhook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: redeliver,
    onSuccess: (_delivery, { organizationId }) => queryClient.invalidateQueries({ queryKey: notificationKeys.webhooks(organizationId) }),
  });
}
