/**
 * Request ids (docs/decisions.md "Start-up and metrics"): a request's id is the X-Request-Id a
 * trusted proxy sent (TRUST_PROXY, the setting that decides whose X-Forwarded-For is believed), else
 * a random UUID, unique across instances (Fastify's own counter restarts at req-1 in every process,
 * so two instances' logs collided). The id is in every log line of the request (`reqId`) and
 * answered in the X-Request-Id header, so a person's report, the proxy's log and ours meet.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import proxyAddr from '@fastify/proxy-addr';
import { trustProxyOption, type Config } from '../config';

/** What a proxy's id may be: printable ASCII without spaces, 1 to 128 characters (a UUID, nginx's $request_id, AWS's Root=1-…). */
const PROXY_ID = /^[\x21-\x7e]{1,128}$/;

export type RequestIdOf = (request: IncomingMessage) => string;

/** Fastify's `genReqId` for the configuration. */
export function requestIdOf(config: Config): RequestIdOf {
  const trust = trustProxyOption(config.trustProxy);
  const trusted = trust === false ? undefined : typeof trust === 'function' ? trust : proxyAddr.compile(trust);
  return (request) => {
    const given = request.headers['x-request-id'];
    // Hop 0: the peer of this socket, the proxy that would have set the header.
    if (trusted && typeof given === 'string' && PROXY_ID.test(given) && trusted(request.socket.remoteAddress ?? '', 0)) return given;
    return randomUUID();
  };
}

/** Answers the id on every response, also those written past Fastify's reply (the built-in provider's). */
export function answerRequestId(response: ServerResponse, id: string): void {
  if (!response.headersSent) response.setHeader('x-request-id', id);
}

/** The hook that answers the id: on the raw response, first thing, so every way out carries it. */
export function registerRequestIdHeader(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    answerRequestId(reply.raw, request.id);
  });
}
