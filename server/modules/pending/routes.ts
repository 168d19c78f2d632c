/**
 * Pending tasks (SPEC.md §7 GET /api/approve, GET /api/acknowledge): approvals and expiry
 * acknowledgements waiting in the organizations where the caller has an applying role.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { PENDING_PAGE_SIZE, pendingCertificateExportQuery, pendingLicenseExportQuery, pendingQuery, pendingSchema } from '../../../common/schemas/pending';
import { csvResponse, sendCsv } from '../../http/csv';
import { actorOf } from '../../auth/hook';
import { pendingJson } from './service';
import { sendJson } from '../../http/kept-answers';
import { exportPendingCertificates, exportPendingLicenses } from './export';

const DESCRIPTIONS = {
  approval: 'Certificates and licenses waiting for an approval (Not approved), oldest request first (creation, then the key).',
  acknowledgement:
    'Expired certificates and licenses whose expiry nobody has acknowledged (licenses: nor renewed), the longest expired first (end of validity, then the key).',
} as const;

export const pendingRoutes: FastifyPluginAsyncZod = async (api) => {
  for (const [path, kind] of [['/approve', 'approval'], ['/acknowledge', 'acknowledgement']] as const) {
    api.get(
      path,
      {
        // Approvals wait until someone acts, so the answer is kept under the global version (every write moves it);
        // acknowledgements also wait for the clock (an expiry), so that answer is only tagged.
        config: { keep: kind === 'approval' ? { varies: 'roles', over: 'all' } : { varies: 'roles' } },
        schema: {
          tags: ['pending'],
          summary: `Pending ${kind}s: one page of each list with its total`,
          operationId: kind === 'approval' ? 'listPendingApprovals' : 'listPendingAcknowledgements',
          description: `${DESCRIPTIONS[kind]} In the organizations where the caller has a role. Each list is paged (certificatesOffset, licensesOffset) and sorted (certificatesSort, licensesSort) on its own, with one page size (limit); certificates_total and licenses_total count every waiting row. Without parameters: the first ${PENDING_PAGE_SIZE} of each.`,
          querystring: pendingQuery,
          response: { 200: pendingSchema },
        },
      },
      async (request, reply) => {
        // JSON made by the service from its pages, each encoded with the schema's own encoding (service.ts).
        const { json, changesAt } = await pendingJson(api.db, actorOf(request), kind, request.query, api.now());
        return sendJson(reply, json, changesAt);
      },
    );

    // Each list of the answer as CSV, beside it: /api/approve/certificates.csv … (pending/export.ts).
    const name = kind === 'approval' ? 'PendingApprovals' : 'PendingAcknowledgements';
    api.get(
      `${path}/certificates.csv`,
      {
        schema: {
          tags: ['pending'],
          summary: `Export the certificates of the pending ${kind}s as CSV, in the list's order`,
          operationId: `exportCertificate${name}`,
          description: `Every row of the certificates list of GET /api${path}, in its order (sort, as certificatesSort there), with the columns of the certificate exports.`,
          querystring: pendingCertificateExportQuery,
          response: csvResponse,
        },
      },
      async (request, reply) => sendCsv(reply, await exportPendingCertificates(api.db, actorOf(request), kind, request.query, api.now)),
    );
    api.get(
      `${path}/licenses.csv`,
      {
        schema: {
          tags: ['pending'],
          summary: `Export the licenses of the pending ${kind}s as CSV, in the list's order`,
          operationId: `exportLicense${name}`,
          description: `Every row of the licenses list of GET /api${path}, in its order (sort, as licensesSort there), with the columns of the license exports.`,
          querystring: pendingLicenseExportQuery,
          response: csvResponse,
        },
      },
      async (request, reply) => sendCsv(reply, await exportPendingLicenses(api.db, actorOf(request), kind, request.query, api.now)),
    );
  }
};
