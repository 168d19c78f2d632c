/**
 * The changes of a webhook endpoint: register (POST), save (PUT), remove (DELETE) and rotate its
 * secret. Each makes the organization's endpoint list and delivery logs stale. Register and rotate
 * answer the signing secret, which the screen shows once and nothing keeps.
 */
import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { Webhook, WebhookBody } from '../../../../common/schemas/webhooks';
import { api } from '../../../lib/api';
import { notificationKeys, webhookApiPath, webhooksApiPath, type EndpointRef } from './keys';

/** What register and rotate answer: the endpoint and its secret (whsec_…), this once. */
export interface WebhookSecret {
  endpoint: Webhook;
  secret: string;
}

const invalidateWebhooks = (queryClient: QueryClient, organizationId: string) =>
  queryClient.invalidateQueries({ queryKey: notificationKeys.webhooks(organizationId) });

function useWebhookMutation<Input extends { organizationId: string }, Output>(call: (input: Input) => Promise<Output>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: call, onSuccess: (_output, { organizationId }) => invalidateWebhooks(queryClient, organizationId) });
}

export const useCreateWebhook = () =>
  useWebhookMutation(({ organizationId, body }: { organizationId: string; body: WebhookBody }) =>
    api<WebhookSecret>(webhooksApiPath(organizationId), { method: 'POST', body }),
  );

export const useSaveWebhook = () =>
  useWebhookMutation(({ organizationId, endpointId, body }: EndpointRef & { body: WebhookBody }) =>
    api<Webhook>(webhookApiPath(organizationId, endpointId), { method: 'PUT', body }),
  );

/**
 * Remove an endpoint. Its page is still open when the answer comes: its queries are only marked
 * stale, not asked again (its delivery log would answer 404); the list asks again when it shows.
 */
export function useDeleteWebhook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ organizationId, endpointId }: EndpointRef) => api<void>(webhookApiPath(organizationId, endpointId), { method: 'DELETE' }),
    onSuccess: (_output, { organizationId }) => void queryClient.invalidateQueries({ queryKey: notificationKeys.webhooks(organizationId), refetchType: 'none' }),
  });
}

export const useRotateWebhookSecret = () =>
  useWebhookMutation(({ organizationId, endpointId }: EndpointRef) =>
    api<WebhookSecret>(`${webhookApiPath(organizationId, endpointId)}/rotate-secret`, { method: 'POST' }),
  );
