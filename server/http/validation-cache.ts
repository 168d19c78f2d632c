/**
 * Query strings and path parameters parsed and validated once, not on every request. Screens and
 * polls ask for the same few list URLs over and over, and parsing their query and validating it and
 * the path's ids with zod was about a tenth of a kept page's CPU under load (docs/performance.md). A
 * parsed query is kept by its text, frozen, so each route's validator can keep its validated value by
 * that object; path parameters are kept by their values. A kept value is frozen, since every request
 * asking the same gets the same one (routes only read their input).
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
 * the parsed object it was given (parseQuerystring's), for path parameters by their values. A refusal
 * is not kept: it is rare, and Fastify wraps its error per request.
 */
export const keepingValidatorCompiler: typeof validatorCompiler = (route) => {
  const validate = validatorCompiler(route) as Validator;
  if (route.httpPart === 'querystring') return keeping(validate, new WeakMap<object, ValidationResult>(), (data) => (Object.isFrozen(data) ? data : undefined));
  // A route's parameters are always the same names in the same order: their values tell them apart.
  if (route.httpPart === 'params') return keeping(validate, boundedMap<ValidationResult>(), (data) => JSON.stringify(Object.values(data)));
  return validate;
};

/** `validate`, its valid results kept in `kept` under `keyOf(data)` (none: not kept). */
function keeping<K>(validate: Validator, kept: { get(key: K): ValidationResult | undefined; set(key: K, value: ValidationResult): unknown }, keyOf: (data: object) => K | undefined): Validator {
  return (data) => {
    const key = typeof data === 'object' && data !== null ? keyOf(data) : undefined;
    if (key === undefined) return validate(data);
    let result = kept.get(key);
    if (!result) {
      const fresh = validate(data);
      if (fresh.error) return fresh;
      kept.set(key, (result = { value: deepFreeze(fresh.value) }));
    }
    return result;
  };
}

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
