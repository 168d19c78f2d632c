/** GET /api/organizations/{id}/auditrecords?filter&offset&limit (SPEC.md §7). */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { auditRecordSchema, journalExportQuery, journalQuery } from '../../../common/schemas/audit';
import { idText } from '../../../common/schemas/text';
import { actorOf } from '../../auth/hook';
import { sendPage } from '../../http/kept-answers';
import { exportJournal, listJournal } from './journal';
import { csvResponse, sendCsv } from '../../http/csv';

export const journalRoutes: FastifyPluginAsyncZod = async (api) => {
  api.get(
    '/organizations/:id/auditrecords',
    {
      config: { keep: { varies: 'roles' } },
      schema: {
        summary: 'List the journal of an organization, newest first',
        operationId: 'listAuditRecords',
        tags: ['journal'],
        params: z.object({ id: idText() }),
        querystring: journalQuery,
        response: { 200: z.array(auditRecordSchema) },
      },
    },
    async (request, reply) => sendPage(reply, await listJournal(api.db, actorOf(request), request.params.id, request.query)),
  );

  api.get(
    '/organizations/:id/auditrecords.csv',
    {
      schema: {
        summary: 'Export the journal of an organization as CSV, with the list\'s filter and order',
        operationId: 'exportAuditRecords',
        tags: ['journal'],
        params: z.object({ id: idText() }),
        querystring: journalExportQuery,
        response: csvResponse,
      },
    },
    async (request, reply) => sendCsv(reply, await exportJournal(api.db, actorOf(request), request.params.id, request.query, api.now)),
  );
};
