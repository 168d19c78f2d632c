/** Access review routes (issue 33). Each handler calls one service function. */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { accessReviewExportQuery, accessReviewQuery, accessReviewRowSchema } from '../../../common/schemas/access-review';
import { idText } from '../../../common/schemas/text';
import { actorOf } from '../../auth/hook';
import { csvResponse, sendCsv } from '../../http/csv';
import { sendPage } from '../../http/kept-answers';
import * as service from './service';

const org = z.object({ id: idText() });
const list = { 200: z.array(accessReviewRowSchema) };

export const accessReviewRoutes: FastifyPluginAsyncZod = async (api) => {
  const tags = ['access review'];

  api.get('/organizations/:id/access-review', { schema: { summary: 'Review who holds which role in an organization, since and until when, granted by whom', operationId: 'getOrganizationAccessReview', tags, params: org, querystring: accessReviewQuery, response: list } }, async (request, reply) =>
    sendPage(reply, await service.organizationReview(api.db, actorOf(request), request.params.id, request.query, api.now())),
  );

  api.get('/organizations/:id/access-review.csv', { schema: { summary: 'Export the access review of an organization as CSV', operationId: 'exportOrganizationAccessReview', tags, params: org, querystring: accessReviewExportQuery, response: csvResponse } }, async (request, reply) =>
    sendCsv(reply, await service.exportOrganizationReview(api.db, actorOf(request), request.params.id, request.query, api.now)),
  );

  api.get('/access-review', { schema: { summary: 'Review the role assignments of every organization the caller may review', operationId: 'getAccessReview', tags, querystring: accessReviewQuery, response: list } }, async (request, reply) =>
    sendPage(reply, await service.allReview(api.db, actorOf(request), request.query, api.now())),
  );

  api.get('/access-review.csv', { schema: { summary: 'Export the access review of every organization the caller may review as CSV', operationId: 'exportAccessReview', tags, querystring: accessReviewExportQuery, response: csvResponse } }, async (request, reply) =>
    sendCsv(reply, await service.exportAllReview(api.db, actorOf(request), request.query, api.now)),
  );
};
