/**
 * Who may pull the gateway exports: an API token of group piston_export, or a person who is
 * DEVOPS of the operator organization. Anything else: 401 for a bad token, 403 for a wrong caller.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { authenticateMember, bearerToken } from '../../auth/hook';
import { authorizeGlobal } from '../../access/authorize';
import { unauthorized } from '../../errors';
import { isApiToken, verifyApiToken } from '../tokens/api-tokens';

export const PISTON_GROUP = 'piston_export';

export async function authenticateGateway(api: FastifyInstance, request: FastifyRequest): Promise<void> {
  const token = bearerToken(request);
  if (!token) throw unauthorized();
  if (isApiToken(api, token)) {
    const claims = await verifyApiToken(api, token);
    if (!claims.groups.includes(PISTON_GROUP)) throw unauthorized('This token is not for the gateway export.');
    return;
  }
  const actor = await authenticateMember(api, request, token);
  authorizeGlobal(actor, 'piston.export', 'Only DEVOPS of the operator organization and gateway tokens may pull the exports.');
  request.actor = actor;
}
