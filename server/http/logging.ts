/**
 * What the request log may say about a request (DECISIONS.md "Sign-in"): its path without the
 * query (authorization codes, states, id_token_hint, people's emails ride there), with the
 * built-in provider's interaction ids masked, and no headers (tokens and cookies ride there).
 */
import { LogController, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import type { Config } from '../config';

/** A segment after /interaction/ or /auth/ that looks like oidc-provider's id (21 url-safe chars). */
const INTERACTION_ID = /(\/(?:interaction|auth)\/)[\w-]{16,}(?=\/|$)/g;

export function loggedPath(url: string): string {
  const path = url.split(/[?#]/, 1)[0];
  return path.replace(INTERACTION_ID, '$1:uid');
}

function serializeRequest(request: FastifyRequest) {
  return {
    method: request.method,
    // As it arrived: a mounted provider rewrites request.url below its prefix before the answer.
    url: loggedPath(request.originalUrl ?? request.url ?? ''),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

/** Fastify's logger options: pino's, through the types fastify exports (the portal never imports pino itself). */
type LoggerOptions = Exclude<FastifyServerOptions['logger'], boolean | undefined>;

export function loggerOptions(config: Config, stream?: { write(line: string): void }): LoggerOptions {
  return {
    level: config.logLevel,
    serializers: { req: serializeRequest },
    // Belt and braces: should anything log headers, tokens, cookies and secrets stay out.
    redact: ['req.headers.authorization', 'req.headers["x-id-token"]', 'req.headers.cookie', 'res.headers["set-cookie"]'],
    ...(stream ? { stream } : {}),
  };
}

/**
 * One line per request, when it is answered: Fastify's own controller writes two, one on arrival and one
 * on completion, and each is a write to the log, a tenth of a cheap request's CPU. A request that never
 * completes is in the access log of the proxy in front. Errors are logged as Fastify logs them.
 */
export class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (error) return super.requestCompleted(error, request, reply);
    reply.log.info({ req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
  }
}
