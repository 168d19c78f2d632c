/**
 * POST /api/token: a signed API token for a machine (DECISIONS.md "API tokens"), answered as text; the token
 * itself is shown once and never stored. GET /api/tokens and DELETE /api/tokens/{id} (issue 34): the tokens
 * made, and revoking one (service.ts).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiTokenListSchema, apiTokenSchema, tokenRequestSchema } from '../../../common/schemas/token';
import { idText } from '../../../common/schemas/text';
import { actorOf } from '../../auth/hook';
import { errorBodySchema } from '../../http/error-handler';
import { fileResponse } from '../../http/openapi';
import { createToken, listApiTokens, revokeApiToken } from './service';

const tags = ['admin'];

export const tokenRoutes: FastifyPluginAsyncZod = async (api) => {
  api.post(
    '/token',
    {
      schema: {
        tags,
        summary: 'Make an API token for a machine (text)',
        operationId: 'createApiToken',
        description: 'The token is recorded (GET /api/tokens) and may be revoked; `name` defaults to the upn.',
        body: tokenRequestSchema,
        // 503: no master secret to sign with.
        response: { 200: fileResponse('The signed API token (a JWT), shown this once.', 'text/plain'), 503: errorBodySchema },
      },
    },
    async (request, reply) => {
      const token = await createToken(api, actorOf(request), request.body);
      return reply.type('text/plain; charset=utf-8').send(token);
    },
  );

  api.get(
    '/tokens',
    { schema: { tags, summary: 'The API tokens made, newest first (never their text)', operationId: 'listApiTokens', response: { 200: apiTokenListSchema } } },
    async (request) => ({ items: await listApiTokens(api, actorOf(request)) }),
  );

  api.delete(
    '/tokens/:id',
    {
      schema: {
        tags,
        summary: 'Revoke an API token',
        description: 'Refused (401) from the next use on every instance. 409 when it is revoked already.',
        operationId: 'revokeApiToken',
        params: z.object({ id: idText() }),
        response: { 200: apiTokenSchema },
      },
    },
    async (request) => revokeApiToken(api, actorOf(request), request.params.id),
  );
};
