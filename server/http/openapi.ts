/**
 * The OpenAPI document at /api/docs/json (docs/decisions.md "OpenAPI document"). Each route says
 * what is its own (summary, operationId, input, success bodies and their content types, an error
 * only it gives); what routes share is declared here, once:
 * - the bearer scheme, on every route but the public ones (`config.auth: 'public'`), and the API key scheme on
 *   those the auth hook signs in to (not the ones that check their own tokens, `config.auth: 'self'`);
 * - the error responses with the one error body (http/error-handler.ts), by what the route takes:
 *   400 when it reads input, 401 and 403 when it needs a token, 404 when its path names something,
 *   409 for a change, 413 and 415 when it reads a body, 429 when it is rate limited, 500 always,
 *   503 when it reads the database (every route that needs a token: the database lost or busy).
 *   They are added to the route's own response schemas, so the serializer holds error bodies to
 *   the shape the document shows;
 * - 304 and ETag for routes that answer If-None-Match (`config.etag`).
 * The built-in identity provider (/oidc) and the operations endpoints are not the API: left out.
 */
import type { FastifyInstance, RouteOptions } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema } from './error-handler';
import { CHANGES_IN } from './kept-answers';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route answers 304 to an If-None-Match naming its current ETag. */
    etag?: boolean;
  }
}

const ERRORS = {
  400: ['BadRequest', 'The input is not valid: `field` names what is wrong. Nothing was changed.'],
  401: ['Unauthorized', 'No bearer token, or one that is not valid (expired, forged, for another audience).'],
  403: ['Forbidden', 'The caller may not do this (their roles), or may not use the portal (banned, unknown organization, unverified email: `redirect` says where to go).'],
  404: ['NotFound', 'Nothing the caller can see has this id.'],
  409: ['Conflict', 'The change does not fit the current state (taken name, wrong status, a version changed meanwhile). Nothing was changed.'],
  413: ['PayloadTooLarge', 'The body is larger than 256 KiB (8 MiB for a bulk certificate upload).'],
  415: ['UnsupportedMediaType', 'The body has a content type the route does not read.'],
  429: ['TooManyRequests', 'Too many calls in a minute from this client, or with this API key (API_KEY_RATE_LIMIT, all instances together); try again after Retry-After. Calls with an API key carry RateLimit and RateLimit-Policy.'],
  500: ['InternalServerError', 'Something went wrong on the server; the details are in its log, not here.'],
  503: ['ServiceUnavailable', 'Not now: the portal is starting or cannot reach its database (try again after Retry-After), or the master secret is not provided yet (keys and tokens cannot be made or checked).'],
} as const satisfies Record<number, readonly [string, string]>;
type ErrorStatus = keyof typeof ERRORS;

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The error statuses a route of /api gives besides those it declares itself. */
function errorStatuses(route: Pick<RouteOptions, 'method' | 'url' | 'schema' | 'config'>): ErrorStatus[] {
  const schema = route.schema ?? {};
  const signedIn = (route.config?.auth ?? 'member') !== 'public';
  const named = Boolean(schema.params) || route.url.includes(':');
  const write = [route.method].flat().some((method) => WRITES.has(method));
  const statuses: ErrorStatus[] = [];
  if (named || schema.querystring || schema.body) statuses.push(400);
  if (signedIn) statuses.push(401, 403);
  if (named) statuses.push(404);
  if (write && signedIn) statuses.push(409);
  if (schema.body) statuses.push(413, 415);
  // A route the auth hook signs in to also takes API keys, which have a limit of their own (auth/api-key-limits.ts).
  if (route.config?.rateLimit || (route.config?.auth ?? 'member') === 'member') statuses.push(429);
  statuses.push(500);
  // Signing in reads the member from the database: lost or too busy, the answer is 503 with Retry-After.
  if (signedIn) statuses.push(503);
  return statuses;
}

/** In the /api scope, before its routes: each route's error responses, by `errorStatuses`. */
export function registerErrorResponses(api: FastifyInstance): void {
  api.addHook('onRoute', (route) => {
    const response: Record<string, unknown> = { ...(route.schema?.response as Record<string, unknown> | undefined) };
    for (const status of errorStatuses(route)) response[status] ??= errorBodySchema;
    // A copy: routes may share one schema object (piston/routes.ts).
    route.schema = { ...route.schema, response };
  });
}

/** A success response that is not JSON: a text, PEM or archive body of this content type. */
export function fileResponse(description: string, contentType: string, format?: 'binary') {
  const schema = format ? z.string().meta({ format }) : z.string();
  return { description, content: { [contentType]: { schema } } };
}

type Operation = { responses?: Record<string, unknown>; parameters?: unknown[]; security?: unknown[] };
type Document = {
  info: Record<string, unknown>;
  paths: Record<string, Record<string, Operation>>;
  components: Record<string, Record<string, unknown>>;
};

const SUCCESS: Record<string, string> = { 200: 'OK', 201: 'Created', 204: 'Done: no content' };

const ETAG = { type: 'string', description: 'The version of the content: send it back in If-None-Match.' };
const RETRY_AFTER = { description: 'Seconds to wait before trying again (starting, the database lost or busy, or a limit reached).', schema: { type: 'integer', minimum: 1 } };
const TOTAL = { type: 'integer', description: 'How many items match the query in all (SPEC.md §7): the list pages by offset and limit.' };
const CHANGES = {
  type: 'string',
  description:
    'When this answer may differ by time alone, in milliseconds from now (`never` when no date ahead changes it): a status or ' +
    'days left turn, or a row enters or leaves a filter on time (hideExpired, hideValid, a time status, expiringWithin). ' +
    'Ask again then to stay current; on a 304 it replaces the value of the copy kept.',
};

/** Shared parts in `components`, each error response pointing at its one definition. */
function finish(document: Document): Document {
  const errorSchema = z.toJSONSchema(errorBodySchema, { target: 'openapi-3.0' });
  delete errorSchema.$schema;
  const responses: Record<string, unknown> = {};
  for (const [status, [name, description]] of Object.entries(ERRORS)) {
    responses[name] = {
      description,
      ...(status === '503' || status === '429' ? { headers: { 'retry-after': RETRY_AFTER } } : {}),
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
    };
    for (const operations of Object.values(document.paths)) {
      for (const operation of Object.values(operations)) {
        if (operation.responses?.[status]) operation.responses[status] = { $ref: `#/components/responses/${name}` };
      }
    }
  }
  // @fastify/swagger's placeholder for a success without a description of its own.
  for (const operations of Object.values(document.paths)) {
    for (const operation of Object.values(operations)) {
      for (const [status, response] of Object.entries(operation.responses ?? {}) as Array<[string, { description?: string }]>) {
        if (response.description === 'Default Response') response.description = SUCCESS[status] ?? 'Success';
      }
    }
  }
  document.components = { ...document.components, schemas: { ...document.components.schemas, Error: errorSchema }, responses };
  return document;
}

/** @fastify/swagger with its UI at /api/docs. */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      info: {
        title: 'Customer Portal API',
        version: '1',
        description:
          'The API of the partner and customer portal (SPEC.md §7). Every call but the public ones sends an access token ' +
          'as `Authorization: Bearer`; every failure answers the JSON body `Error`.',
        // package.json is private and names no license: the vendor's own terms apply.
        license: { name: 'Proprietary' },
      },
      // Relative: the portal that serves this document (PUBLIC_URL), whichever that is.
      servers: [{ url: '/', description: 'This portal' }],
      components: {
        securitySchemes: {
          bearer: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'JWT',
            description:
              "An access token of the portal's OpenID Connect provider, for the audience OIDC_AUDIENCE. " +
              'The gateway exports (/api/piston/routes.hcl, /api/piston/certs) also take an API token of group piston_export (POST /api/token).',
          },
          apiKey: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'cpk_',
            description:
              "An organization's API key (POST /api/organizations/{id}/api-keys), sent as `Authorization: Bearer cpk_…`: " +
              'it acts as a member of its organization with its roles, until it expires or is revoked.',
          },
        },
      },
      security: [{ bearer: [] }, { apiKey: [] }],
    },
    transform: (input) => {
      const { route, url } = input;
      // The provider's pages and the operations endpoints are not part of the API.
      if (!url.startsWith('/api/')) return { schema: { hide: true }, url };
      const { schema, url: path } = jsonSchemaTransform(input);
      const transformed = schema as Record<string, unknown> & { response?: Record<string, unknown> };
      if (route.config?.auth === 'public') transformed.security = [];
      if (route.config?.auth === 'self') transformed.security = [{ bearer: [] }];
      // A paged list (offset and limit) tells the total of all its pages in X-Total-Count.
      const query = transformed.querystring as { properties?: Record<string, unknown> } | undefined;
      const listed = transformed.response?.[200] as { headers?: unknown } | undefined;
      if (query?.properties?.offset && query.properties.limit && listed) listed.headers = { 'x-total-count': TOTAL };
      // Answers whose keep rule tells it say when they change by time alone (http/kept-answers.ts).
      if (route.config?.keep?.tells && listed) listed.headers = { ...(listed.headers as object | undefined), [CHANGES_IN]: CHANGES };
      if (route.config?.etag) {
        transformed.headers = { type: 'object', properties: { 'if-none-match': { type: 'string', description: 'The ETag of the copy the client has.' } } };
        const ok = transformed.response?.[200] as { headers?: unknown } | undefined;
        if (ok) ok.headers = { etag: ETAG };
        transformed.response = { ...transformed.response, 304: { type: 'null', description: 'Not Modified: the client has the current version (If-None-Match).', headers: { etag: ETAG } } };
      }
      return { schema: transformed, url: path };
    },
    transformObject: (document) => finish((document as { openapiObject: unknown }).openapiObject as Document) as never,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: true });
}
