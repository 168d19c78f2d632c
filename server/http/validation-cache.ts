/**
 * Query strings parsed and validated once per text, not on every request. Screens and polls ask for
 * the same few list URLs over and over, and parsing their query and validating it with zod was about
 * a twentieth of a kept page's CPU under load (docs/performance.md). A parsed query is kept by its
 * text, frozen, so each route's validator can keep its validated value by that object; the value is
 * frozen too, since every request of that text gets the same one (routes only read their query).
 * Path parameters are validated as they come: an id's zod check (0.5 µs) costs less than keeping it
 * by its value would (1.2 µs, measured).
 */
import { parse } from 'fast-querystring';
import type { FastifySchemaValidationError } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';

/** Texts kept at most: bounded without bookkeeping, like the kept statements (db/database.ts). */
const LIMIT = 1_000;
type Query = Record<string, unknown>;
const parsed = boundedMap<Query>();

/** Fastify's own parser (find-my-way's fast-querystring), its result kept by the text and frozen. */
export function parseQuerystring(text: string): Query {
  let query = parsed.get(text);
  if (!query) parsed.set(text, (query = deepFreeze(text.length === 0 ? {} : (parse(text) as Query))));
  return query;
}

/** What the zod compiler's validators answer (they are synchronous). */
type ValidationResult = { error?: Error | FastifySchemaValidationError[]; value?: unknown };

type Validator = (data: unknown) => ValidationResult;

/**
 * The zod validator of fastify-type-provider-zod; for a query string it keeps each valid result by
 * the parsed object it was given (parseQuerystring's). A refusal is not kept: it is rare, and Fastify
 * wraps its error per request.
 */
export const keepingValidatorCompiler: typeof validatorCompiler = (route) => {
  const validate = validatorCompiler(route) as Validator;
  if (route.httpPart !== 'querystring') return validate;
  const kept = new WeakMap<object, ValidationResult>();
  return (data) => {
    if (typeof data !== 'object' || data === null || !Object.isFrozen(data)) return validate(data);
    let result = kept.get(data);
    if (!result) {
      const fresh = validate(data);
      if (fresh.error) return fresh;
      kept.set(data, (result = { value: deepFreeze(fresh.value) }));
    }
    return result;
  };
};

/** A map of at most LIMIT entries, emptied when full. */
function boundedMap<V>() {
  const map = new Map<string, V>();
  return {
    get: (key: string) => map.get(key),
    set(key: string, value: V) {
      if (map.size >= LIMIT) map.clear();
      map.set(key, value);
    },
  };
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}
