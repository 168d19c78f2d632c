/**
 * POST /api/admin/mastersecret and GET /api/admin/state (SPEC.md §7, DECISIONS.md "Master secret").
 * The body is the secret as plain text; it is never logged, echoed or returned.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { adminStateSchema } from '../../../common/schemas/admin';
import { actorOf } from '../../auth/hook';
import { authorizeOperator } from '../../access/authorize';
import { SECRET_REFUSAL } from '../../access/target-guard';
import { provideMasterSecret } from './master-secret';

export const secretRoutes: FastifyPluginAsyncZod = async (api) => {
  const tags = ['admin'];

  api.post(
    '/admin/mastersecret',
    {
      // Slows down guessing; scrypt already costs tens of milliseconds per try.
      config: { rateLimit: { max: 30, timeWindow: '1 minute' } },
      schema: { summary: 'Provide the master secret (the body is the secret, as text)', operationId: 'provideMasterSecret', tags, consumes: ['text/plain'], body: z.string().max(4096, 'at most 4096 characters'), response: { 200: adminStateSchema } },
    },
    async (request) => {
      const actor = actorOf(request);
      const operator = authorizeOperator(actor, 'admin.secret', SECRET_REFUSAL);
      await provideMasterSecret(api.db, api.masterSecret, request.body, { email: actor.email, organization_id: operator, via: 'api' }, api.now());
      return { secret_provided: true };
    },
  );

  // Only a yes or no, but about the operator's setup: for the staff of the token and secret screens.
  api.get('/admin/state', { schema: { summary: 'Whether the master secret is provided', operationId: 'getAdminState', tags, response: { 200: adminStateSchema } } }, async (request) => {
    authorizeOperator(actorOf(request), 'admin.state', 'Only supervisors and DevOps staff of the operator may see the portal state.');
    return { secret_provided: api.masterSecret.provided };
  });
};
