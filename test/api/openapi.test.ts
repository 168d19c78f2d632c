/**
 * The OpenAPI document at /api/docs/json is valid and complete (issue 11, docs/decisions.md
 * "OpenAPI document"): swagger-parser and Redocly's recommended rules find no error, the bearer
 * scheme covers every route that needs a token, errors are described with their body, files have
 * their real content types, and the identity provider's routes stay out. The document does not
 * depend on the engine or on any data: one empty SQLite database serves it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import SwaggerParser from '@apidevtools/swagger-parser';
import { BaseResolver, createConfig, lintDocument, makeDocumentFromString } from '@redocly/openapi-core';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../server/app';
import { errorBodySchema } from '../../server/http/error-handler';
import { createTestDatabase, type TestDatabase } from '../support/databases';
import { signToken, TEST_CONFIG } from '../support/tokens';

type Operation = {
  operationId?: string;
  security?: Array<Record<string, string[]>>;
  parameters?: Array<{ name: string; in: string }>;
  requestBody?: { content: Record<string, unknown> };
  responses: Record<string, { $ref?: string; content?: Record<string, unknown>; headers?: Record<string, unknown> }>;
};
type Document = {
  security?: Array<Record<string, string[]>>;
  paths: Record<string, Record<string, Operation>>;
  components: { securitySchemes?: Record<string, Record<string, string>>; responses?: Record<string, unknown>; schemas?: Record<string, unknown> };
};

/** The routes anyone may call (`config.auth: 'public'`). */
const PUBLIC = ['GET /api/config', 'GET /api/licenses/public-key'];

/**
 * The Redocly problems we accept, by rule and place (like a .redocly.lint-ignore.yaml), each with its reason:
 * - info-license-strict wants a license URL: the portal is proprietary and there is no public license text to link.
 * - operation-4xx-response: the two public routes read no input and need no token, so no 4xx can occur; none is made up.
 */
const ACCEPTED = new Set([
  'info-license-strict #/info/license/url',
  'operation-4xx-response #/paths/~1api~1config/get/responses',
  'operation-4xx-response #/paths/~1api~1licenses~1public-key/get/responses',
]);

let database: TestDatabase;
let app: FastifyInstance;
let text: string;
let doc: Document;

const operations = () =>
  Object.entries(doc.paths).flatMap(([path, ops]) => Object.entries(ops).map(([method, op]) => ({ key: `${method.toUpperCase()} ${path}`, op })));
const operation = (key: string) => operations().find((o) => o.key === key)?.op ?? expect.unreachable(`${key} is documented`);
const statuses = (key: string) => Object.keys(operation(key).responses).sort();

beforeAll(async () => {
  database = await createTestDatabase('sqlite');
  app = await buildApp({ config: TEST_CONFIG, db: database.db, logger: false });
  await app.ready();
  const res = await app.inject('/api/docs/json');
  expect(res.statusCode).toBe(200);
  text = res.body;
  doc = JSON.parse(text);
});

afterAll(async () => {
  await app?.close();
  await database?.drop();
});

describe('the OpenAPI document', () => {
  it('is valid for swagger-parser', async () => {
    // validate() dereferences the object it is given: a copy.
    await expect(SwaggerParser.validate(structuredClone(doc) as never)).resolves.toBeDefined();
  });

  it("passes Redocly's recommended rules without an error, and with no warning but the accepted ones", async () => {
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintDocument({ document: makeDocumentFromString(text, '/api/docs/json'), config, externalRefResolver: new BaseResolver() });
    const described = problems.map((p) => `${p.severity} ${p.ruleId} ${p.location[0]?.pointer ?? ''}: ${p.message}`);
    expect(described.filter((p) => p.startsWith('error')), 'errors').toEqual([]);
    const unexpected = problems.filter((p) => !ACCEPTED.has(`${p.ruleId} ${p.location[0]?.pointer}`));
    expect(unexpected.map((p) => `${p.severity} ${p.ruleId} ${p.location[0]?.pointer}: ${p.message}`)).toEqual([]);
  });

  it('leaves out the identity provider and the operations endpoints', () => {
    expect(Object.keys(doc.paths).filter((path) => !path.startsWith('/api/'))).toEqual([]);
    expect(operations().length).toBeGreaterThan(50);
    expect(new Set(operations().map((o) => o.op.operationId)).size, 'operation ids are unique').toBe(operations().length);
  });

  it('asks for a bearer JWT or an organization API key on every route but the public ones', async () => {
    expect(doc.components.securitySchemes?.bearer).toMatchObject({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' });
    expect(doc.components.securitySchemes?.apiKey).toMatchObject({ type: 'http', scheme: 'bearer', bearerFormat: 'cpk_' });
    expect(doc.security).toEqual([{ bearer: [] }, { apiKey: [] }]);
    const open = operations().filter((o) => Array.isArray(o.op.security) && o.op.security.length === 0);
    expect(open.map((o) => o.key).sort()).toEqual(PUBLIC);
    for (const o of open) expect(o.op.security, o.key).toEqual([]);
    // Public for real: no 401 without a token (the public key is 503 until the master secret is provided).
    for (const key of PUBLIC) expect((await app.inject({ method: 'GET', url: key.split(' ')[1] })).statusCode, key).not.toBe(401);
    // And the gateway exports, which check their own tokens, still need one: a JWT or a gateway token, not an API key.
    expect(operation('GET /api/piston/certs').security).toEqual([{ bearer: [] }]);
    expect((await app.inject('/api/piston/certs')).statusCode).toBe(401);
  });

  it('describes each error response once, with the error body', () => {
    const error = { content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };
    expect(doc.components.responses?.Unauthorized).toMatchObject(error);
    expect(doc.components.schemas?.Error).toMatchObject({ required: ['message', 'severity'], properties: { severity: { enum: ['ERROR', 'WARNING'] } } });
    for (const { key, op } of operations()) {
      for (const [status, response] of Object.entries(op.responses)) {
        if (Number(status) >= 400) expect(response.$ref, `${key} ${status}`).toMatch(/^#\/components\/responses\//);
      }
      expect(op.responses['500'], key).toBeDefined();
    }
  });

  it('declares the errors each route can give', () => {
    // 429: every route the auth hook signs in to takes API keys, which have a limit per key.
    expect(statuses('POST /api/organizations')).toEqual(['201', '400', '401', '403', '409', '413', '415', '429', '500', '503']);
    expect(statuses('GET /api/organizations/{id}')).toEqual(['200', '400', '401', '403', '404', '429', '500', '503']);
    expect(statuses('GET /api/auth/callback')).toEqual(['200', '401', '403', '429', '500', '503']);
    expect(statuses('POST /api/admin/mastersecret')).toEqual(['200', '400', '401', '403', '409', '413', '415', '429', '500', '503']);
    expect(statuses('GET /api/licenses/{id}/license-key')).toEqual(['200', '400', '401', '403', '404', '409', '429', '500', '503']);
    expect(statuses('GET /api/piston/certs').includes('429')).toBe(false);
    expect(doc.components.responses?.TooManyRequests).toMatchObject({ headers: { 'retry-after': { schema: { type: 'integer' } } } });
    expect(statuses('GET /api/config')).toEqual(['200', '500']);
    expect(operation('GET /api/licenses/{id}/license-key').responses['409'].$ref).toBe('#/components/responses/Conflict');
    // Every route that signs the caller in reads the database: lost or busy, it answers 503 with Retry-After.
    for (const { key, op } of operations().filter((o) => o.op.security?.length !== 0)) expect(op.responses['503'], key).toBeDefined();
    expect(doc.components.responses?.ServiceUnavailable).toMatchObject({ headers: { 'retry-after': { schema: { type: 'integer' } } } });
  });

  it('types every field: no schema says nothing (`{}`), read-only fields sent back included', () => {
    // A `{}` schema is `unknown` in a generated client. Anywhere in an operation: parameters, bodies, responses.
    const untyped: string[] = [];
    const walk = (node: unknown, where: string) => {
      if (!node || typeof node !== 'object') return;
      if (!Array.isArray(node) && Object.keys(node).length === 0 && !/\/(headers|examples|properties)$/.test(where)) untyped.push(where);
      for (const [key, value] of Object.entries(node)) walk(value, `${where}/${key}`);
    };
    for (const { key, op } of operations()) walk(op, key);
    walk(doc.components.schemas, 'components/schemas');
    expect(untyped).toEqual([]);
    // The object sent back whole (SPEC.md §7): its read-only fields carry GET's types and say they are read-only.
    const approval = (operation('POST /api/licenses/{id}/approve').requestBody?.content['application/json'] as { schema: { properties: Record<string, Record<string, unknown>> } }).schema;
    expect(approval.properties.days_left).toMatchObject({ readOnly: true, type: 'integer' });
    expect(approval.properties.extended_by).toMatchObject({ readOnly: true, nullable: true, type: 'object', properties: { license_id: { type: 'string' } } });
    expect(approval.properties.abilities).toMatchObject({ readOnly: true, type: 'array', items: { type: 'string' } });
    expect(approval.properties.license_name).not.toHaveProperty('readOnly');
  });

  it('answers errors with the body the document describes', async () => {
    const anonymous = await app.inject('/api/organizations');
    expect(anonymous.statusCode).toBe(401);
    expect(errorBodySchema.strict().parse(anonymous.json())).toMatchObject({ severity: 'ERROR' });
    // A verified person of no organization: 403 with where to go.
    const token = await signToken(database.db, { email: 'stranger@unknown.example', email_verified: true });
    const stranger = await app.inject({ url: '/api/auth/callback', headers: { authorization: `Bearer ${token}` } });
    expect(stranger.statusCode).toBe(403);
    expect(errorBodySchema.strict().parse(stranger.json())).toMatchObject({ redirect: 'AuthWelcome' });
    const unavailable = await app.inject('/api/licenses/public-key');
    expect(unavailable.statusCode).toBe(503);
    expect(errorBodySchema.strict().parse(unavailable.json())).toMatchObject({ severity: 'ERROR' });
  });

  it('gives the files their real content types', () => {
    const types = (key: string) => Object.keys((operation(key).responses['200'].content ?? {}) as object);
    expect(types('GET /api/licenses/{id}/license-key')).toEqual(['text/plain']);
    expect(types('GET /api/licenses/public-key')).toEqual(['application/x-pem-file']);
    expect(types('POST /api/token')).toEqual(['text/plain']);
    expect(types('GET /api/piston/routes.hcl')).toEqual(['text/plain']);
    expect(types('GET /api/piston/certs')).toEqual(['application/gzip']);
    expect(operation('GET /api/piston/certs').responses['200'].content).toEqual({ 'application/gzip': { schema: { type: 'string', format: 'binary' } } });
    expect(Object.keys(operation('POST /api/admin/mastersecret').requestBody?.content ?? {})).toEqual(['text/plain']);
    // The exports answer If-None-Match with 304 and name their ETag.
    const certs = operation('GET /api/piston/certs');
    expect(certs.responses['304']).toMatchObject({ headers: { etag: expect.anything() } });
    expect(certs.parameters).toContainEqual(expect.objectContaining({ name: 'if-none-match', in: 'header' }));
    // Paged lists name their total; the pending lists carry theirs in the body.
    for (const key of ['GET /api/certificates', 'GET /api/organizations/{id}/licenses', 'GET /api/members', 'GET /api/organizations/{id}/auditrecords']) {
      expect(operation(key).responses['200'].headers, key).toHaveProperty('x-total-count');
    }
    expect(operation('GET /api/approve').responses['200'].headers).toBeUndefined();
    // The description's body, checked by the service after the roles, is still described.
    const description = operation('PUT /api/organizations/{id}/certificates/{dn}/description').requestBody?.content ?? {};
    expect(description['application/json']).toMatchObject({ schema: { type: 'string', maxLength: 1000 } });
  });
});
