/** Organization API keys (issue 32): GET/POST /organizations/{id}/api-keys, DELETE …/{keyId}, and the admin list. */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiKeyBodySchema, apiKeyListSchema, apiKeySecretSchema } from '../../../common/schemas/api-keys';
import { idText } from '../../../common/schemas/text';
import { actorOf } from '../../auth/hook';
import * as service from './service';

const tags = ['api-keys'];
const org = z.object({ id: idText() });
const key = org.extend({ keyId: idText() });

export const apiKeyRoutes: FastifyPluginAsyncZod = async (api) => {
  const base = '/organizations/:id/api-keys';

  api.get(base, { schema: { summary: "An organization's API keys, revoked ones included (never their secrets)", operationId: 'listApiKeys', tags, params: org, response: { 200: apiKeyListSchema } } },
    async (request) => ({ items: await service.listKeys(api.db, actorOf(request), request.params.id) }));

  api.post(base, {
    schema: {
      summary: 'Create an API key', operationId: 'createApiKey', tags, params: org, body: apiKeyBodySchema, response: { 201: apiKeySecretSchema },
      description: 'Answers the secret (cpk_…) this once; use it as `Authorization: Bearer <secret>`. The roles are bounded by what the caller may grant; the expiry is at most 365 days ahead.',
    },
  }, async (request, reply) => reply.status(201).send(await service.createKey(api.db, actorOf(request), request.params.id, request.body, api.now())));

  api.delete(`${base}/:keyId`, { schema: { summary: 'Revoke an API key (it stays listed as revoked)', operationId: 'revokeApiKey', tags, params: key, response: { 204: z.null() } } },
    async (request, reply) => {
      await service.revokeKey(api.db, actorOf(request), request.params.id, request.params.keyId, api.now());
      return reply.status(204).send(null);
    });

  api.get('/api-keys', { schema: { summary: 'The API keys of all organizations (the vendor\'s supervisors)', operationId: 'listAllApiKeys', tags, response: { 200: apiKeyListSchema } } },
    async (request) => ({ items: await service.listAllKeys(api.db, actorOf(request)) }));
};
