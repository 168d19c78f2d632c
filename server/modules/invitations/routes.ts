/** Invitation routes (issue 34 item 2), in SPEC.md §7's style. Each handler calls one service function. */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { invitationCreateSchema, invitationListQuery, invitationSchema } from '../../../common/schemas/invitation';
import { idText } from '../../../common/schemas/text';
import { actorOf } from '../../auth/hook';
import * as service from './service';

const org = z.object({ id: idText() });
const orgInvitation = org.extend({ invitationId: idText() });

export const invitationRoutes: FastifyPluginAsyncZod = async (api) => {
  const tags = ['members'];
  const at = '/organizations/:id/invitations';

  api.get(at, { schema: { summary: 'List the invitations of an organization, newest first (X-Total-Count)', operationId: 'listInvitations', tags, params: org, querystring: invitationListQuery, response: { 200: z.array(invitationSchema) } } }, async (request, reply) => {
    const { items, total } = await service.listInvitations(api.db, actorOf(request), request.params.id, request.query, api.now());
    reply.header('x-total-count', String(total));
    return items;
  });

  api.post(at, { schema: { summary: 'Invite a person by email with a role and scope; the invitation is mailed and lasts 7 days', operationId: 'createInvitation', tags, params: org, body: invitationCreateSchema, response: { 201: invitationSchema } } }, async (request, reply) => {
    const invitation = await service.invite(api.db, actorOf(request), request.params.id, request.body, api.now());
    return reply.status(201).send(invitation);
  });

  api.post(`${at}/:invitationId/resend`, { schema: { summary: 'Mail an invitation again; it lasts 7 days from now', operationId: 'resendInvitation', tags, params: orgInvitation, response: { 200: invitationSchema } } }, async (request) =>
    service.resend(api.db, actorOf(request), request.params.id, request.params.invitationId, api.now()),
  );

  api.delete(`${at}/:invitationId`, { schema: { summary: 'Revoke an invitation', operationId: 'revokeInvitation', tags, params: orgInvitation, response: { 204: z.null() } } }, async (request, reply) => {
    await service.revoke(api.db, actorOf(request), request.params.id, request.params.invitationId, api.now());
    return reply.status(204).send(null);
  });
};
