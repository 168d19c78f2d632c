/**
 * The gateways' poll that changes nothing, answered before Fastify: GET routes.hcl or the certificate
 * archive with a bearer token already verified for the export, and an If-None-Match naming the export
 * this process holds as current, the token found not revoked at the export epoch this process knows (a
 * revocation moves it: tokens/api-tokens.ts). Such a poll is answered 304 with the very headers the route gives
 * (routes.ts), counted in the request metrics and logged in one line at info, as Fastify would log its
 * completion; anything else (another request, a token to verify, an export to rebuild or to confirm with a
 * query, a changed export) goes to Fastify as before.
 *
 * Why: a 304 is all a fleet of gateways gets while nothing changes, and Fastify's routing, hooks,
 * two request log lines and reply cost about twice the answer itself (docs/performance.md).
 */
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { bearerTokenOf } from '../../auth/hook';
import { knownApiToken } from '../tokens/api-tokens';
import { exportHeaders, keptExport, notModified } from './exports';
import { PISTON_GROUP } from './gateway-auth';
import { answerRequestId, type RequestIdOf } from '../../http/request-id';

const KINDS: Record<string, 'routes' | 'certs'> = { '/api/piston/routes.hcl': 'routes', '/api/piston/certs': 'certs' };

/** Answers the poll and says true, or says false and leaves the request untouched. */
function answerUnchanged(app: FastifyInstance, request: IncomingMessage, response: ServerResponse, requestId: RequestIdOf): boolean {
  const kind = request.method === 'GET' ? KINDS[request.url ?? ''] : undefined;
  const ifNoneMatch = request.headers['if-none-match'];
  if (!kind || !ifNoneMatch) return false;
  const token = bearerTokenOf(request.headers.authorization);
  const claims = token ? knownApiToken(app, token) : undefined;
  if (!claims?.groups.includes(PISTON_GROUP)) return false;
  const kept = keptExport(app.db, kind, app.now());
  if (!kept || !notModified(ifNoneMatch, kept.etag)) return false;
  // The headers of the route's 304 (routes.ts); Date from Node.
  answerRequestId(response, requestId(request));
  response.writeHead(304, exportHeaders(kept.etag)).end();
  return true;
}

/**
 * Fastify's request handler with the unchanged poll answered first, once `app` (the instance built on it) is there.
 * The poll has a request id as Fastify's requests do (`requestId`: http/request-id.ts), in its answer and its log line.
 */
export function withFastPoll(handler: RequestListener, app: () => FastifyInstance | undefined, requestId: RequestIdOf): RequestListener {
  return (request, response) => {
    const started = performance.now();
    const portal = app();
    if (!portal || !answerUnchanged(portal, request, response, requestId)) return handler(request, response);
    const seconds = (performance.now() - started) / 1000;
    portal.requestDurations.observe({ method: 'GET', route: request.url!, status: '304' }, seconds);
    const reqId = response.getHeader('x-request-id');
    portal.log.info({ reqId, req: { method: 'GET', url: request.url }, res: { statusCode: 304 }, responseTime: seconds * 1000 }, 'request completed');
  };
}
