/** An organization's webhook endpoints and their delivery logs (issue 13 item 5). */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  deliveryQuerySchema, webhookBodySchema, webhookDeliveryPageSchema, webhookDeliverySchema, webhookListSchema, webhookSchema, webhookSecretSchema,
} from '../../../common/schemas/webhooks';
import { idText } from '../../../common/schemas/text';
import { actorOf } from '../../auth/hook';
import * as service from './service';

const tags = ['notifications'];
const org = z.object({ id: idText() });
const endpoint = org.extend({ endpointId: idText() });
const delivery = endpoint.extend({ deliveryId: idText() });

export const webhookRoutes: FastifyPluginAsyncZod = async (api) => {
  const allowPrivate = api.config.notifications.allowPrivateWebhooks;
  const base = '/organizations/:id/webhooks';

  api.get(base, { schema: { summary: "An organization's webhook endpoints", operationId: 'listWebhooks', tags, params: org, response: { 200: webhookListSchema } } },
    async (request) => ({ items: await service.listWebhooks(api.db, actorOf(request), request.params.id) }));

  api.post(base, {
    schema: {
      summary: 'Register a webhook endpoint', operationId: 'createWebhook', tags, params: org, body: webhookBodySchema, response: { 201: webhookSecretSchema },
      description: 'Answers the signing secret (Standard Webhooks, whsec_…) this once. Loopback and private addresses are refused unless WEBHOOK_ALLOW_PRIVATE.',
    },
  }, async (request, reply) => reply.status(201).send(await service.createWebhook(api.db, actorOf(request), request.params.id, request.body, api.now(), allowPrivate)));

  api.put(`${base}/:endpointId`, { schema: { summary: 'Save a webhook endpoint', operationId: 'saveWebhook', tags, params: endpoint, body: webhookBodySchema, response: { 200: webhookSchema } } },
    async (request) => service.saveWebhook(api.db, actorOf(request), request.params.id, request.params.endpointId, request.body, api.now(), allowPrivate));

  api.delete(`${base}/:endpointId`, { schema: { summary: 'Remove a webhook endpoint and its delivery log', operationId: 'removeWebhook', tags, params: endpoint, response: { 204: z.null() } } },
    async (request, reply) => {
      await service.removeWebhook(api.db, actorOf(request), request.params.id, request.params.endpointId, api.now());
      return reply.status(204).send(null);
    });

  api.post(`${base}/:endpointId/rotate-secret`, {
    schema: {
      summary: "Rotate a webhook endpoint's secret", operationId: 'rotateWebhookSecret', tags, params: endpoint, response: { 200: webhookSecretSchema },
      description: 'Answers the new secret this once; deliveries carry signatures by both secrets for 24 hours.',
    },
  }, async (request) => service.rotateSecret(api.db, actorOf(request), request.params.id, request.params.endpointId, api.now()));

  api.get(`${base}/:endpointId/deliveries`, {
    schema: { summary: "A webhook endpoint's deliveries, newest first, with their attempts", operationId: 'listWebhookDeliveries', tags, params: endpoint, querystring: deliveryQuerySchema, response: { 200: webhookDeliveryPageSchema } },
  }, async (request) => service.listDeliveries(api.db, actorOf(request), request.params.id, request.params.endpointId, request.query));

  api.post(`${base}/:endpointId/deliveries/:deliveryId/redeliver`, {
    schema: { summary: 'Deliver a delivered or failed event again', operationId: 'redeliverWebhook', tags, params: delivery, response: { 200: webhookDeliverySchema } },
  }, async (request) => service.redeliver(api.db, actorOf(request), request.params.id, request.params.endpointId, request.params.deliveryId, api.now()));
};
