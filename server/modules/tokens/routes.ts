/**
 * POST /api/token: a signed API token for a machine (DECISIONS.md "API tokens"), answered as text.
 * The token itself is shown once and never stored; the journal keeps who made it, for whom, its id.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { tokenRequestSchema } from '../../../common/schemas/token';
import { actorOf } from '../../auth/hook';
import { authorizeOperator } from '../../access/authorize';
import { TOKEN_REFUSAL } from '../../access/target-guard';
import { audit } from '../../db/audit';
import { signApiToken } from './api-tokens';
import { errorBodySchema } from '../../http/error-handler';
import { fileResponse } from '../../http/openapi';

export const tokenRoutes: FastifyPluginAsyncZod = async (api) => {
  api.post(
    '/token',
    {
      schema: {
        tags: ['admin'],
        summary: 'Make an API token for a machine (text)',
        operationId: 'createApiToken',
        body: tokenRequestSchema,
        // 503: no master secret to sign with.
        response: { 200: fileResponse('The signed API token (a JWT), shown this once.', 'text/plain'), 503: errorBodySchema },
      },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      const operator = authorizeOperator(actor, 'admin.token', TOKEN_REFUSAL);
      const { upn, groups, expires_in: days } = request.body;
      const { token, id } = await signApiToken(api, { upn, groups, expiresInDays: days });
      const now = api.now();
      await audit(api.db, {
        reason: 'TOKEN_CREATED',
        message: `Created API token ${id} for ${upn} (groups ${groups.join(', ')}, valid ${days} days).`,
        organization_id: operator,
        member_email: actor.email,
        now,
        subject: { type: 'token', id, details: { upn, expires_in_days: days } },
      });
      return reply.type('text/plain; charset=utf-8').send(token);
    },
  );
};
