/**
 * The security headers of every /api response, worked out once by helmet itself. The app's pages
 * need a CSP with a fresh nonce per response (app.ts), so helmet builds their headers per request;
 * a JSON or file answer is never rendered as a document, so its CSP allows nothing and holds no
 * nonce, and the same headers serve every answer. Building them per request cost about a tenth of
 * a list request's CPU under load (helmet parsed its directives and drew a nonce each time).
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet, { type HelmetOptions } from 'helmet';

const API_HELMET: HelmetOptions = {
  contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
};

/** The headers helmet sets with these options, captured from one run of its middleware. */
function helmetHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader: (name: string, value: string | number) => void (headers[name.toLowerCase()] = String(value)),
    removeHeader: (name: string) => void delete headers[name.toLowerCase()],
  };
  helmet(options)({} as IncomingMessage, response as unknown as ServerResponse, () => {});
  return headers;
}

const API_HEADERS = Object.freeze(helmetHeaders(API_HELMET));

/** In the /api scope: helmet's per-request work off (it runs for the app's pages), the fixed headers on. */
export function registerApiHeaders(api: FastifyInstance): void {
  api.addHook('onRoute', (route) => {
    route.config = Object.assign(route.config ?? Object.create(null), { helmet: { skipRoute: true } });
  });
  api.addHook('onRequest', async (_request, reply) => {
    reply.headers(API_HEADERS);
  });
}

/**
 * A 304 carries what RFC 9110 §15.4.5 asks of it (ETag, Cache-Control; Node adds Date) and not these: they belong to
 * the 200 the client keeps, and a cache keeps them through a 304 without them (RFC 9111 §4.3.4). The fourteen headers
 * were about a third of a gateway's poll (Node checks and writes each one; docs/performance.md).
 */
export function dropApiHeaders(reply: FastifyReply): void {
  for (const name of Object.keys(API_HEADERS)) reply.removeHeader(name);
}
