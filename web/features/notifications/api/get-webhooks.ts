/** GET /api/organizations/{id}/webhooks: the organization's endpoints with their latest outcome. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Webhook } from '../../../../common/schemas/webhooks';
import { api } from '../../../lib/api';
import { notificationKeys, webhooksApiPath } from './keys';

function getWebhooks(organizationId: string, signal?: AbortSignal): Promise<Webhook[]> {
  return api<{ items: Webhook[] }>(webhooksApiPath(organizationId), { signal }).then((list) => list.items);
}

const webhooksQueryOptions = (organizationId: string) =>
  queryOptions({
    queryKey: notificationKeys.webhookList(organizationId),
    queryFn: ({ signal }) => getWebhooks(organizationId, signal),
    // The last status and failed count move while deliveries run.
    staleTime: 0,
  });

export function useWebhooks(organizationId: string, enabled = true) {
  return useQuery({ ...webhooksQueryOptions(organizationId), enabled: !!organizationId && enabled });
}
