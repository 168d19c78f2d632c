/**
 * The one error handler: every failure leaves as JSON with `message` and `severity` (SPEC.md §8),
 * a `field` for invalid input and a `redirect` where the web app should go. Internals stay in the log.
 */
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { HttpError } from '../errors';
import { databaseHealth } from '../db/database';
import { errorBodySchema, type ErrorBody } from '../../common/schemas/error';

/** Seconds a client is asked to wait before trying again (Retry-After): while starting, and while the database does not answer. */
export const RETRY_AFTER_SECONDS = 5;

const DATABASE_MESSAGES = {
  unreachable: 'The portal cannot reach its database at the moment. Please try again in a moment.',
  busy: 'The database is too busy to answer right now. Please try again in a moment.',
} as const;

/** The one error body, defined in common/ for the web app too; the OpenAPI document's `Error` (http/openapi.ts). */
export { errorBodySchema };

function fieldOf(path: string | undefined): string | undefined {
  const cleaned = path?.replace(/^\//, '').replace(/\//g, '.');
  return cleaned || undefined;
}

/**
 * Two calls at the same moment can both pass a service's checks and meet in the database: a
 * unique key taken meanwhile (two uploads of one certificate), or PostgreSQL ending one side of a
 * deadlock or serialization failure. That is a conflict the person can resolve, not a server error.
 */
export function databaseConflict(error: { code?: unknown; message?: string }): string | null {
  const code = typeof error.code === 'string' ? error.code : '';
  if (code === '23505' || code.startsWith('SQLITE_CONSTRAINT_UNIQUE') || code === 'SQLITE_CONSTRAINT_PRIMARYKEY') {
    return 'This already exists: it was created at the same moment by another request. Reload to see it.';
  }
  if (code === '40P01' || code === '40001') return 'This was changed at the same moment by another request. Reload and try again.';
  return null;
}

export function errorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof HttpError) {
    const body: ErrorBody = { message: error.message, severity: error.extra.severity ?? 'ERROR' };
    if (error.extra.field) body.field = error.extra.field;
    if (error.extra.redirect) body.redirect = error.extra.redirect;
    return reply.status(error.statusCode).send(body);
  }
  if (hasZodFastifySchemaValidationErrors(error)) {
    const first = error.validation[0];
    const where = error.validationContext === 'querystring' ? 'query' : error.validationContext;
    // Named by their path: an unknown key inside a nested object (a bulk action's `match.x`) is that object's field.
    const inside = first?.keyword === 'unrecognized_keys' ? fieldOf(first.instancePath) : undefined;
    const unknownKeys = first?.keyword === 'unrecognized_keys' ? ((first.params as { keys?: string[] }).keys ?? []).map((k) => (inside ? `${inside}.${k}` : k)) : [];
    if (unknownKeys.length > 0) {
      const names = unknownKeys.map((k) => `'${k}'`).join(', ');
      const message = `Unknown field${unknownKeys.length > 1 ? 's' : ''} ${names} in the ${where ?? 'input'}: nothing was changed.`;
      return reply.status(400).send({ message, severity: 'ERROR', field: unknownKeys[0] } satisfies ErrorBody);
    }
    // A body that is one value (the master secret) has no field: its path is empty.
    const field = fieldOf(first?.instancePath) ?? ((first?.params as { issue?: { path?: unknown[] } })?.issue?.path?.join('.') || undefined);
    const message = `Invalid ${where ?? 'input'}${field ? ` field '${field}'` : ''}: ${first?.message ?? 'not accepted'}.`;
    return reply.status(400).send({ message, severity: 'ERROR', field } satisfies ErrorBody);
  }
  const clash = databaseConflict(error);
  if (clash) return reply.status(409).send({ message: clash, severity: 'WARNING' } satisfies ErrorBody);
  // A lost, frozen or overloaded database: 503 as while starting, no stack per request; the outage is
  // logged once by the database's health (db/health.ts).
  const failure = request.server.db ? databaseHealth(request.server.db).failureOf(error) : undefined;
  if (failure) {
    return reply.status(503).header('retry-after', RETRY_AFTER_SECONDS).send({ message: DATABASE_MESSAGES[failure], severity: 'ERROR' } satisfies ErrorBody);
  }
  const status = error.statusCode ?? 500;
  if (status >= 500) {
    request.log.error({ err: error }, 'request failed');
    return reply.status(500).send({ message: 'Something went wrong on our side. Please try again.', severity: 'ERROR' } satisfies ErrorBody);
  }
  // Fastify's own 4xx (body too large, bad JSON, unsupported media type, rate limit): their text is safe to show.
  return reply.status(status).send({ message: error.message, severity: 'ERROR' } satisfies ErrorBody);
}
