/** Certificate routes (SPEC.md §7). Each handler calls one service function. */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { certificateSchema, certificateSummarySchema, certificateUploadSchema } from '../../../common/schemas/certificate';
import { statusListQuery } from '../../../common/schemas/lists';
import { idText } from '../../../common/schemas/text';
import { actorOf } from '../../auth/hook';
import { sendPage } from '../../db/page-cache';
import * as service from './service';

const org = z.object({ id: idText() });
const orgDn = org.extend({ dn: idText(4096) });
const list = z.array(certificateSummarySchema);
const done = { 204: z.null() };

export const certificateRoutes: FastifyPluginAsyncZod = async (api) => {
  const tags = ['certificates'];

  api.get('/certificates', { schema: { tags, querystring: statusListQuery, response: { 200: list } } }, async (request, reply) => {
    return sendPage(reply, await service.listForActor(api.db, actorOf(request), request.query, api.now()));
  });

  api.get('/organizations/:id/certificates', { schema: { tags, params: org, querystring: statusListQuery, response: { 200: list } } }, async (request, reply) => {
    return sendPage(reply, await service.listForOrganization(api.db, actorOf(request), request.params.id, request.query, api.now()));
  });

  api.get(
    '/organizations/:id/members/:memberId/certificates',
    { schema: { tags, params: org.extend({ memberId: idText() }), querystring: statusListQuery, response: { 200: list } } },
    async (request, reply) => {
      const { id, memberId } = request.params;
      return sendPage(reply, await service.listOwnedBy(api.db, actorOf(request), id, memberId, request.query, api.now()));
    },
  );

  api.get('/organizations/:id/certificates/:dn', { schema: { tags, params: orgDn, response: { 200: certificateSchema } } }, async (request) =>
    service.getCertificate(api.db, actorOf(request), request.params.id, request.params.dn),
  );

  api.post(
    '/organizations/:id/certificates',
    // A PEM of 64 KiB plus its description and JSON escaping fits well inside 256 KiB.
    { schema: { tags, params: org, body: certificateUploadSchema, response: { 201: certificateSchema } } },
    async (request, reply) => {
      const created = await service.uploadCertificate(api.db, actorOf(request), request.params.id, request.body, api.now());
      return reply.status(201).send(created);
    },
  );

  api.delete('/organizations/:id/certificates/:dn', { schema: { tags, params: orgDn, response: done } }, async (request, reply) => {
    await service.transition(api.db, actorOf(request), 'remove', request.params.dn, request.params.id, api.now());
    return reply.status(204).send(null);
  });

  api.post('/approve/:dn', { schema: { tags, params: z.object({ dn: orgDn.shape.dn }), response: done } }, async (request, reply) => {
    await service.transition(api.db, actorOf(request), 'approve', request.params.dn, undefined, api.now());
    return reply.status(204).send(null);
  });

  api.post('/organizations/:id/certificates/:dn/revoke', { schema: { tags, params: orgDn, response: done } }, async (request, reply) => {
    await service.transition(api.db, actorOf(request), 'revoke', request.params.dn, request.params.id, api.now());
    return reply.status(204).send(null);
  });

  api.post('/organizations/:id/certificates/:dn/acknowledge-expiry', { schema: { tags, params: orgDn, response: done } }, async (request, reply) => {
    await service.transition(api.db, actorOf(request), 'acknowledgeExpiry', request.params.dn, request.params.id, api.now());
    return reply.status(204).send(null);
  });

  api.put(
    '/organizations/:id/certificates/:dn/description',
    { schema: { tags, params: orgDn, body: z.unknown(), response: { 200: certificateSchema } } },
    async (request) => service.updateDescription(api.db, actorOf(request), request.params.id, request.params.dn, request.body, api.now()),
  );
};
