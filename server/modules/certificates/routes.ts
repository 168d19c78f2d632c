/** Certificate routes (SPEC.md §7). Each handler calls one service function. */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { certificateSchema, certificateSummarySchema, certificateUploadSchema } from '../../../common/schemas/certificate';
import { certificateExportQuery, certificateListQuery } from '../../../common/schemas/lists';
import { csvResponse, sendCsv } from '../../http/csv';
import { idText } from '../../../common/schemas/text';
import { actorOf } from '../../auth/hook';
import { sendPage, type KeepRule } from '../../http/kept-answers';
import { filterReadsClock } from './repository';
import * as service from './service';
import * as bulk from './bulk';
import { certificateBulkBody, certificateBulkParams, certificateBulkPreviewQuery, certificateBulkResultSchema, bulkPreviewSchema } from '../../../common/schemas/bulk';
import { bulkUploadCertificates } from './bulk-upload';
import { BULK_UPLOAD_BODY_LIMIT, bulkUploadResultSchema, bulkUploadSchema } from '../../../common/schemas/bulk-upload';

const org = z.object({ id: idText() });
const orgDn = org.extend({ dn: idText(4096) });
const list = z.array(certificateSummarySchema);
const done = { 204: z.null() };
/** Lists are kept per organization (http/kept-answers.ts) unless a filter reads the clock; each tells when it changes by time alone. */
const keep: KeepRule = { varies: 'roles', tells: true, when: (query) => !filterReadsClock(query as Parameters<typeof filterReadsClock>[0]) };
/** The admin list reads every organization the caller reads: kept under the global version (http/kept-answers.ts). */
const keepAll: KeepRule = { ...keep, over: 'all' };
/**
 * The description as the document shows it (common/schemas/certificate.ts descriptionSchema). The
 * route takes any JSON: the service checks it after the caller's roles, so a reader who may not edit
 * learns nothing from the body's checks.
 */
const descriptionBody = z.unknown().meta({ type: 'string', maxLength: 1000, description: 'The new description, a JSON string of at most 1,000 characters.' });

export const certificateRoutes: FastifyPluginAsyncZod = async (api) => {
  const tags = ['certificates'];

  // Bulk actions (bulk.ts): each item as its single call; the answer per item (docs/decisions.md "Bulk actions").
  api.get('/bulk/certificates/:action/preview', { schema: { summary: 'Count what a bulk action on all certificates that match a list\'s query would act on', operationId: 'previewCertificateBulkAction', tags, params: certificateBulkParams, querystring: certificateBulkPreviewQuery, response: { 200: bulkPreviewSchema } } }, async (request) =>
    bulk.preview(api.db, actorOf(request), request.params.action, request.query, api.now()),
  );
  api.post('/bulk/certificates/:action', { schema: { summary: 'Approve, revoke or acknowledge the expiry of many certificates, each as its single call, answered per certificate', operationId: 'runCertificateBulkAction', tags, params: certificateBulkParams, body: certificateBulkBody, response: { 200: certificateBulkResultSchema } } }, async (request) =>
    bulk.run(api.db, actorOf(request), request.params.action, request.body, api.now, request.log),
  );

  api.get('/certificates', { config: { keep: keepAll }, schema: { summary: 'List the certificates of the organizations the caller can see', operationId: 'listCertificates', tags, querystring: certificateListQuery, response: { 200: list } } }, async (request, reply) => {
    return sendPage(reply, await service.listForActor(api.db, actorOf(request), request.query, api.now()));
  });

  api.get('/certificates.csv', { schema: { summary: 'Export the certificates of the organizations the caller can see as CSV, with the list\'s filters and order', operationId: 'exportCertificateList', tags, querystring: certificateExportQuery, response: csvResponse } }, async (request, reply) =>
    sendCsv(reply, await service.exportForActor(api.db, actorOf(request), request.query, api.now)),
  );

  api.get('/organizations/:id/certificates.csv', { schema: { summary: 'Export the certificates of an organization as CSV, with the list\'s filters and order', operationId: 'exportOrganizationCertificateList', tags, params: org, querystring: certificateExportQuery, response: csvResponse } }, async (request, reply) =>
    sendCsv(reply, await service.exportForOrganization(api.db, actorOf(request), request.params.id, request.query, api.now)),
  );

  api.get('/organizations/:id/certificates', { config: { keep }, schema: { summary: 'List the certificates of an organization', operationId: 'listOrganizationCertificates', tags, params: org, querystring: certificateListQuery, response: { 200: list } } }, async (request, reply) => {
    return sendPage(reply, await service.listForOrganization(api.db, actorOf(request), request.params.id, request.query, api.now()));
  });

  api.get(
    '/organizations/:id/members/:memberId/certificates.csv',
    { schema: { summary: 'Export the certificates a member uploaded as CSV, with the list\'s filters and order', operationId: 'exportMemberCertificateList', tags, params: org.extend({ memberId: idText() }), querystring: certificateExportQuery, response: csvResponse } },
    async (request, reply) => sendCsv(reply, await service.exportOwnedBy(api.db, actorOf(request), request.params.id, request.params.memberId, request.query, api.now)),
  );

  api.get(
    '/organizations/:id/members/:memberId/certificates',
    { config: { keep }, schema: { summary: 'List the certificates a member uploaded', operationId: 'listMemberCertificates', tags, params: org.extend({ memberId: idText() }), querystring: certificateListQuery, response: { 200: list } } },
    async (request, reply) => {
      const { id, memberId } = request.params;
      return sendPage(reply, await service.listOwnedBy(api.db, actorOf(request), id, memberId, request.query, api.now()));
    },
  );

  api.get('/organizations/:id/certificates/:dn', { schema: { summary: 'Get a certificate by its distinguished name', operationId: 'getCertificate', tags, params: orgDn, response: { 200: certificateSchema } } }, async (request) =>
    service.getCertificate(api.db, actorOf(request), request.params.id, request.params.dn),
  );

  api.post(
    '/organizations/:id/certificates',
    // A PEM of 64 KiB plus its description and JSON escaping fits well inside 256 KiB.
    { schema: { summary: 'Upload a certificate (PEM) for approval', operationId: 'uploadCertificate', tags, params: org, body: certificateUploadSchema, response: { 201: certificateSchema } } },
    async (request, reply) => {
      const created = await service.uploadCertificate(api.db, actorOf(request), request.params.id, request.body, api.now());
      return reply.status(201).send(created);
    },
  );

  api.post(
    '/organizations/:id/certificates/bulk',
    // A hundred PEMs of 64 KiB as JSON: the route's own body limit (common/schemas/bulk-upload.ts).
    { bodyLimit: BULK_UPLOAD_BODY_LIMIT, schema: { summary: 'Upload several certificates (PEM blocks in one text) for approval, each as a single upload, answered per certificate', operationId: 'bulkUploadCertificates', tags, params: org, body: bulkUploadSchema, response: { 200: bulkUploadResultSchema } } },
    async (request) => bulkUploadCertificates(api.db, actorOf(request), request.params.id, request.body, api.now()),
  );

  api.delete('/organizations/:id/certificates/:dn', { schema: { summary: 'Remove a certificate', operationId: 'removeCertificate', tags, params: orgDn, response: done } }, async (request, reply) => {
    await service.transition(api.db, actorOf(request), 'remove', request.params.dn, request.params.id, api.now());
    return reply.status(204).send(null);
  });

  api.post('/approve/:dn', { schema: { summary: 'Approve a certificate', operationId: 'approveCertificate', tags, params: z.object({ dn: orgDn.shape.dn }), response: done } }, async (request, reply) => {
    await service.transition(api.db, actorOf(request), 'approve', request.params.dn, undefined, api.now());
    return reply.status(204).send(null);
  });

  api.post('/organizations/:id/certificates/:dn/revoke', { schema: { summary: 'Revoke a certificate', operationId: 'revokeCertificate', tags, params: orgDn, response: done } }, async (request, reply) => {
    await service.transition(api.db, actorOf(request), 'revoke', request.params.dn, request.params.id, api.now());
    return reply.status(204).send(null);
  });

  api.post('/organizations/:id/certificates/:dn/acknowledge-expiry', { schema: { summary: 'Acknowledge the expiry of a certificate', operationId: 'acknowledgeCertificateExpiry', tags, params: orgDn, response: done } }, async (request, reply) => {
    await service.transition(api.db, actorOf(request), 'acknowledgeExpiry', request.params.dn, request.params.id, api.now());
    return reply.status(204).send(null);
  });

  api.put(
    '/organizations/:id/certificates/:dn/description',
    { schema: { summary: 'Change the description of a certificate (the body is the description, a JSON string)', operationId: 'setCertificateDescription', tags, params: orgDn, body: descriptionBody, response: { 200: certificateSchema } } },
    async (request) => service.updateDescription(api.db, actorOf(request), request.params.id, request.params.dn, request.body, api.now()),
  );
};
