/** Organization routes (SPEC.md §7). Each handler calls one service function. */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  banQuery, organizationCreateSchema, organizationExportQuery, organizationListQuery, organizationSchema, organizationUpdateSchema,
} from '../../../common/schemas/organization';
import { idText } from '../../../common/schemas/text';
import { actorOf } from '../../auth/hook';
import { sendPage } from '../../http/kept-answers';
import * as service from './service';
import { csvResponse, sendCsv } from '../../http/csv';

const params = z.object({ id: idText() });
const one = { 200: organizationSchema };

export const organizationRoutes: FastifyPluginAsyncZod = async (api) => {
  const tags = ['organizations'];

  api.get('/organizations.csv', { schema: { summary: 'Export the organizations the caller can see as CSV, with the list\'s filter and order', operationId: 'exportOrganizationList', tags, querystring: organizationExportQuery, response: csvResponse } }, async (request, reply) =>
    sendCsv(reply, await service.exportForActor(api.db, actorOf(request), request.query, api.now)),
  );

  api.get(
    '/organizations',
    { config: { keep: { varies: 'member' } }, schema: { summary: 'List the organizations the caller can see', operationId: 'listOrganizations', tags, querystring: organizationListQuery, response: { 200: z.array(organizationSchema) } } },
    async (request, reply) => sendPage(reply, await service.listForActor(api.db, actorOf(request), request.query)),
  );

  api.get('/organizations/:id', { config: { keep: { varies: 'member' } }, schema: { summary: 'Get an organization', operationId: 'getOrganization', tags, params, response: one } }, async (request) =>
    service.getForActor(api.db, actorOf(request), request.params.id),
  );

  api.post('/organizations', { schema: { summary: 'Create an organization', operationId: 'createOrganization', tags, body: organizationCreateSchema, response: { 201: organizationSchema } } }, async (request, reply) => {
    const created = await service.createOrganization(api.db, actorOf(request), request.body, api.now());
    return reply.status(201).send(created);
  });

  api.put('/organizations/:id', { schema: { summary: 'Save an organization', operationId: 'saveOrganization', tags, params, body: organizationUpdateSchema, response: one } }, async (request) =>
    service.saveOrganization(api.db, actorOf(request), request.params.id, request.body, api.now()),
  );

  api.post('/organizations/:id/ban', { schema: { summary: 'Ban an organization', operationId: 'banOrganization', tags, params, querystring: banQuery, response: one } }, async (request) =>
    service.banOrganization(api.db, actorOf(request), request.params.id, request.query.note, api.now()),
  );

  api.post('/organizations/:id/unban', { schema: { summary: 'Lift the ban of an organization', operationId: 'unbanOrganization', tags, params, response: one } }, async (request) =>
    service.unbanOrganization(api.db, actorOf(request), request.params.id, api.now()),
  );
};
