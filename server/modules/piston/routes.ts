/**
 * The gateway's pull: routes.hcl, the certificate archive and the statistics, each with a strong
 * ETag and 304 for a matching If-None-Match. Callers: a piston_export API token, or an operator
 * DEVOPS member (DECISIONS.md).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { pistonStatisticsSchema } from '../../../common/schemas/piston';
import { authenticateGateway } from './gateway-auth';
import { currentCertsArchive, currentRoutesHcl, exportHeaders, notModified, type Export } from './exports';
import { buildCertsArchive, closeArchiveBuilder } from './archive-builder';
import { stopExportEpochWatch } from '../../db/export-epoch';
import { buildStatistics } from './statistics';
import { errorBodySchema } from '../../http/error-handler';
import { fileResponse } from '../../http/openapi';
import { dropApiHeaders } from '../../http/api-headers';

function sendExport(request: FastifyRequest, reply: FastifyReply, result: Export, type: string, fileName: string) {
  reply.headers(exportHeaders(result.etag));
  if (notModified(request.headers['if-none-match'], result.etag)) {
    dropApiHeaders(reply);
    return reply.status(304).send();
  }
  return reply.type(type).header('content-disposition', `attachment; filename="${fileName}"`).send(result.body);
}

export const pistonRoutes: FastifyPluginAsyncZod = async (api) => {
  // 'self': gateway-auth.ts checks the bearer token (an API token or a DEVOPS member's), so 401 and 403 still apply.
  const tags = ['piston'];
  const config = { auth: 'self' as const, etag: true };
  // 503: an API token cannot be checked without the master secret.
  const unavailable = { 503: errorBodySchema };
  api.addHook('onRequest', async (request) => {
    await authenticateGateway(api, request);
  });
  // The archive's builder and the export epoch's listener hold connections of their own: they go before the database does.
  api.addHook('onClose', async () => {
    await Promise.all([closeArchiveBuilder(api.db), stopExportEpochWatch(api.db)]);
  });

  const hcl = fileResponse('The gateway routes in HCL, served as text (Content-Disposition: attachment; filename="routes.hcl").', 'text/plain');
  api.get('/piston/routes.hcl', { config, schema: { tags, summary: 'Export the gateway routes (routes.hcl)', operationId: 'exportRoutesHcl', response: { 200: hcl, ...unavailable } } }, async (request, reply) =>
    sendExport(request, reply, await currentRoutesHcl(api.db, api.now()), 'text/plain; charset=utf-8', 'routes.hcl'),
  );

  const certs = fileResponse('The approved certificates as a gzip-compressed tar archive (certs.tar.gz).', 'application/gzip', 'binary');
  api.get('/piston/certs', { config, schema: { tags, summary: 'Export the certificates archive (tar, gzip)', operationId: 'exportCertificates', response: { 200: certs, ...unavailable } } }, async (request, reply) =>
    sendExport(request, reply, await currentCertsArchive(api.db, api.now()), 'application/gzip', 'certs.tar.gz'),
  );

  const statistics = { tags, summary: 'Statistics of the gateway exports', operationId: 'getPistonStatistics', response: { 200: pistonStatisticsSchema, ...unavailable } };
  api.get('/piston/statistics', { config: { auth: 'self' }, schema: statistics }, async () => {
    const now = api.now();
    // One build for the archive's ETag and the file names the statistics give.
    const [routes, certs] = await Promise.all([currentRoutesHcl(api.db, now), buildCertsArchive(api.db, now, true)]);
    return buildStatistics(api.db, now, routes, certs.archive, certs.files ?? []);
  });
};
