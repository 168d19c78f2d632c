/** License routes (SPEC.md §7). Each handler calls one service function. */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { licenseApprovalSchema, licenseRequestSchema, licenseSchema, timeZoneField, versionQuery } from '../../../common/schemas/license';
import { licenseExportQuery, licenseListQuery } from '../../../common/schemas/lists';
import { csvResponse, sendCsv } from '../../http/csv';
import { idText, text } from '../../../common/schemas/text';
import { actorOf } from '../../auth/hook';
import { sendPage, type KeepRule } from '../../http/kept-answers';
import { filterReadsClock } from './repository';
import * as service from './service';
import * as bulk from './bulk';
import { bulkPreviewSchema, licenseBulkBody, licenseBulkParams, licenseBulkPreviewQuery, licenseBulkResultSchema } from '../../../common/schemas/bulk';
import { errorBodySchema } from '../../http/error-handler';
import { fileResponse } from '../../http/openapi';
import { licenseKey, licensePublicKeyPem } from './keys';

const org = z.object({ id: idText() });
const license = z.object({ id: idText() });
const list = z.array(licenseSchema);
const TEXT = 'text/plain; charset=utf-8';
/** Lists are kept per organization (http/kept-answers.ts) unless a filter reads the clock; they tell when they change by time alone (days left, filters). */
const keep: KeepRule = { varies: 'roles', tells: true, when: (query) => !filterReadsClock(query as Parameters<typeof filterReadsClock>[0]) };
/** The admin list reads every organization the caller reads: kept under the global version (http/kept-answers.ts). */
const keepAll: KeepRule = { ...keep, over: 'all' };
/**
 * ?version=, and the requester's day (days.ts renewalWindow, docs/decisions.md "Licenses"): their zone
 * (?time_zone=), or the instant their day started (?today=); without either, today in the license's zone.
 */
const renewQuery = versionQuery.extend({
  time_zone: timeZoneField.optional().meta({
    description:
      "The requester's IANA time zone (America/New_York): the successor is valid from the start of today there, for the original's days " +
      "counted as calendar days there. Without it and without `today`: today in the original license's zone (its `time_zone`; UTC for a license requested without one).",
  }),
  today: text().max(40).optional().meta({
    description:
      'The instant the requester\'s day started (their local midnight, ISO-8601, within the last 24 hours), which the successor is valid from. ' +
      'With `time_zone` it must be midnight there.',
  }),
});

const RENEW =
  "The successor starts on the requester's day and runs the original's `days_valid` calendar days in the requester's zone. " +
  "Name the day with `time_zone` (or `today`); without either it is today in the original license's zone.";
const REQUEST =
  "`days_valid` are calendar days in `time_zone` from the start of `date_valid_from`'s day there (DST changes included). " +
  'Without `time_zone` the license is counted in UTC, as before: valid-from defaults to the UTC day and a day is 24 hours.';

export const licenseRoutes: FastifyPluginAsyncZod = async (api) => {
  const tags = ['licenses'];

  // Bulk actions (bulk.ts): each item as its single call; the answer per item (docs/decisions.md "Bulk actions").
  api.get('/bulk/licenses/:action/preview', { schema: { summary: 'Count what a bulk action on all licenses that match a list\'s query would act on', operationId: 'previewLicenseBulkAction', tags, params: licenseBulkParams, querystring: licenseBulkPreviewQuery, response: { 200: bulkPreviewSchema } } }, async (request) =>
    bulk.preview(api.db, actorOf(request), request.params.action, request.query, api.now()),
  );
  api.post('/bulk/licenses/:action', { schema: { summary: 'Approve (as requested), reject or acknowledge the expiry of many licenses, each as its single call, answered per license', operationId: 'runLicenseBulkAction', tags, params: licenseBulkParams, body: licenseBulkBody, response: { 200: licenseBulkResultSchema } } }, async (request) =>
    bulk.run(api.db, actorOf(request), request.params.action, request.body, api.now, request.log),
  );

  api.get('/licenses', { config: { keep: keepAll }, schema: { summary: 'List the licenses of the organizations the caller can see', operationId: 'listLicenses', tags, querystring: licenseListQuery, response: { 200: list } } }, async (request, reply) => {
    return sendPage(reply, await service.listForActor(api.db, actorOf(request), request.query, api.now()));
  });

  // Public: the vendor's software and anyone holding a key may fetch it to verify keys offline.
  api.get(
    '/licenses/public-key',
    {
      config: { auth: 'public' },
      schema: {
        tags,
        summary: 'The public key that verifies license keys (PEM)',
        operationId: 'getLicensePublicKey',
        response: { 200: fileResponse('The Ed25519 public key, SPKI in PEM.', 'application/x-pem-file'), 503: errorBodySchema },
      },
    },
    async (_request, reply) =>
      reply.type('application/x-pem-file').send(licensePublicKeyPem(api.masterSecret)),
  );

  api.get('/licenses.csv', { schema: { summary: 'Export the licenses of the organizations the caller can see as CSV, with the list\'s filters and order', operationId: 'exportLicenseList', tags, querystring: licenseExportQuery, response: csvResponse } }, async (request, reply) =>
    sendCsv(reply, await service.exportForActor(api.db, actorOf(request), request.query, api.now)),
  );

  api.get('/organizations/:id/licenses.csv', { schema: { summary: 'Export the licenses of an organization as CSV, with the list\'s filters and order', operationId: 'exportOrganizationLicenseList', tags, params: org, querystring: licenseExportQuery, response: csvResponse } }, async (request, reply) =>
    sendCsv(reply, await service.exportForOrganization(api.db, actorOf(request), request.params.id, request.query, api.now)),
  );

  api.get('/organizations/:id/licenses', { config: { keep }, schema: { summary: 'List the licenses of an organization', operationId: 'listOrganizationLicenses', tags, params: org, querystring: licenseListQuery, response: { 200: list } } }, async (request, reply) => {
    return sendPage(reply, await service.listForOrganization(api.db, actorOf(request), request.params.id, request.query, api.now()));
  });

  api.post(
    '/organizations/:id/licenses',
    { schema: { summary: 'Request a license', operationId: 'requestLicense', description: REQUEST, tags, params: org, body: licenseRequestSchema, response: { 201: licenseSchema } } },
    async (request, reply) => {
      const created = await service.requestLicense(api.db, actorOf(request), request.params.id, request.body, api.now());
      return reply.status(201).send(created);
    },
  );

  api.get('/licenses/:id', { schema: { summary: 'Get a license', operationId: 'getLicense', tags, params: license, response: { 200: licenseSchema } } }, async (request) =>
    service.getLicense(api.db, actorOf(request), request.params.id, api.now()),
  );

  api.post('/licenses/:id/approve', { schema: { summary: 'Approve a license request (the body is the license as approved)', operationId: 'approveLicense', tags, params: license, body: licenseApprovalSchema, response: { 200: licenseSchema } } }, async (request) =>
    service.approveLicense(api.db, actorOf(request), request.params.id, request.body, api.now()),
  );

  api.post('/licenses/:id/reject', { schema: { summary: 'Reject a license request', operationId: 'rejectLicense', tags, params: license, querystring: versionQuery, response: { 200: licenseSchema } } }, async (request) =>
    service.rejectLicense(api.db, actorOf(request), request.params.id, request.query.version, api.now()),
  );

  // Answers the successor it made: the new license that now waits for approval.
  api.post('/licenses/:id/renew', { schema: { summary: 'Renew a license: request its successor', operationId: 'renewLicense', description: RENEW, tags, params: license, querystring: renewQuery, response: { 201: licenseSchema } } }, async (request, reply) => {
    const { version, today, time_zone } = request.query;
    const successor = await service.renewLicense(api.db, actorOf(request), request.params.id, version, api.now(), { today, time_zone });
    return reply.status(201).send(successor);
  });

  api.post(
    '/licenses/:id/acknowledge-expiry',
    { schema: { summary: 'Acknowledge the expiry of a license', operationId: 'acknowledgeLicenseExpiry', tags, params: license, querystring: versionQuery, response: { 200: licenseSchema } } },
    async (request) => service.acknowledgeExpiry(api.db, actorOf(request), request.params.id, request.query.version, api.now()),
  );

  api.get(
    '/licenses/:id/license-key',
    {
      schema: {
        tags,
        summary: 'The license key of an approved license (text)',
        operationId: 'getLicenseKey',
        params: license,
        // 409: not approved, or rejected; 503: no master secret to sign with.
        response: { 200: fileResponse('The signed license key.', 'text/plain'), 409: errorBodySchema, 503: errorBodySchema },
      },
    },
    async (request, reply) => {
      const key = await licenseKey(api.db, actorOf(request), request.params.id, api.masterSecret);
      return reply.type(TEXT).send(key);
    },
  );
};
