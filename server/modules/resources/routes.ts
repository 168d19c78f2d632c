/** Resource routes (SPEC.md §7). */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { organizationResourceListQuery, resourceInputSchema, resourceListQuery, resourceSchema } from '../../../common/schemas/resource';
import { idText, text } from '../../../common/schemas/text';
import { actorOf } from '../../auth/hook';
import * as service from './service';
import { csvResponse, sendCsv } from '../../http/csv';

const id = z.object({ id: idText() });
const organizationQuery = z.object({ organization: text().min(1, 'is required').max(100) });

export const resourceRoutes: FastifyPluginAsyncZod = async (api) => {
  const tags = ['resources'];

  api.get('/resources.csv', { schema: { summary: 'Export the resources catalogue as CSV, with the list\'s filter and order', operationId: 'exportResourceList', tags, querystring: resourceListQuery, response: csvResponse } }, async (request, reply) =>
    sendCsv(reply, await service.exportResources(api.db, actorOf(request), request.query, api.now)),
  );

  api.get('/organizations/:id/resources.csv', { schema: { summary: 'Export the resources an organization may download as CSV, in the list\'s order', operationId: 'exportOrganizationResourceList', tags, params: id, querystring: organizationResourceListQuery, response: csvResponse } }, async (request, reply) =>
    sendCsv(reply, await service.exportForOrganization(api.db, actorOf(request), request.params.id, request.query.sort, api.now)),
  );

  api.get('/resources', { schema: { summary: 'List the resources catalogue', operationId: 'listResources', tags, querystring: resourceListQuery, response: { 200: z.array(resourceSchema) } } }, async (request) =>
    service.listResources(api.db, actorOf(request), request.query),
  );

  api.get('/organizations/:id/resources', { schema: { summary: 'List the resources an organization may download', operationId: 'listOrganizationResources', tags, params: id, querystring: organizationResourceListQuery, response: { 200: z.array(resourceSchema) } } }, async (request) =>
    service.listForOrganization(api.db, actorOf(request), request.params.id, request.query.sort),
  );

  api.get('/resources/:id', { schema: { summary: 'Get a resource', operationId: 'getResource', tags, params: id, response: { 200: resourceSchema } } }, async (request) =>
    service.getResource(api.db, actorOf(request), request.params.id),
  );

  api.post('/resources', { schema: { summary: 'Create a resource', operationId: 'createResource', tags, body: resourceInputSchema, response: { 201: resourceSchema } } }, async (request, reply) =>
    reply.status(201).send(await service.createResource(api.db, actorOf(request), request.body, api.now())),
  );

  api.put('/resources/:id', { schema: { summary: 'Save a resource', operationId: 'saveResource', tags, params: id, body: resourceInputSchema, response: { 200: resourceSchema } } }, async (request) =>
    service.updateResource(api.db, actorOf(request), request.params.id, request.body, api.now()),
  );

  api.delete('/resources/:id', { schema: { summary: 'Delete a resource', operationId: 'deleteResource', tags, params: id, response: { 204: z.null() } } }, async (request, reply) => {
    await service.deleteResource(api.db, actorOf(request), request.params.id, api.now());
    return reply.status(204).send(null);
  });

  for (const [path, granted] of [['add', true], ['remove', false]] as const) {
    const schema = granted
      ? { summary: 'Grant a RESTRICTED resource to an organization', operationId: 'grantResource' }
      : { summary: 'Withdraw a RESTRICTED resource from an organization', operationId: 'withdrawResource' };
    api.post(`/resources/:id/${path}`, { schema: { ...schema, tags, params: id, querystring: organizationQuery, response: { 200: resourceSchema } } }, async (request) =>
      service.setGrant(api.db, actorOf(request), request.params.id, request.query.organization, granted, api.now()),
    );
  }
};
