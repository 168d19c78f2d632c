/**
 * GET /api/organizations/{id}/webhooks/{endpointId}/deliveries?before&status&limit: an endpoint's
 * deliveries, newest first, each with its attempts; paged by cursor (next_before).
 */
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { WebhookDelivery } from '../../../../common/schemas/webhooks';
import { api } from '../../../lib/api';
import { notificationKeys, webhookApiPath, type EndpointRef } from './keys';

export type DeliveryStatus = WebhookDelivery['status'];

export interface DeliveriesQuery {
  before?: number;
  status?: DeliveryStatus;
  limit?: number;
}

interface DeliveryPage {
  items: WebhookDelivery[];
  next_before: number | null;
}

/** While a delivery is pending, the log asks again this often: its attempts come in as they happen. */
const PENDING_INTERVAL_MS = 3000;

function getDeliveries({ organizationId, endpointId }: EndpointRef, query: DeliveriesQuery, signal?: AbortSignal) {
  return api<DeliveryPage>(`${webhookApiPath(organizationId, endpointId)}/deliveries`, { query: { ...query }, signal });
}

const deliveriesQueryOptions = (ref: EndpointRef, query: DeliveriesQuery) =>
  queryOptions({
    queryKey: notificationKeys.deliveries(ref.organizationId, ref.endpointId, query),
    queryFn: ({ signal }) => getDeliveries(ref, query, signal),
    placeholderData: keepPreviousData,
    staleTime: 0,
    refetchInterval: (q) => (q.state.data?.items.some((d) => d.status === 'pending') ? PENDING_INTERVAL_MS : false),
  });

export function useWebhookDeliveries(ref: EndpointRef, query: DeliveriesQuery) {
  return useQuery(deliveriesQueryOptions(ref, query));
}
