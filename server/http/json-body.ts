/**
 * The JSON body parser. Like Fastify's own it refuses prototype-pollution keys (`__proto__`
 * anywhere, `constructor` holding a `prototype`), but it says so and names the key, instead of
 * calling such a body "not valid JSON"; a body that is not JSON gets the parser's reason.
 */
import type { FastifyInstance } from 'fastify';
import { HttpError } from '../errors';

/** The first key a body may never have, with its path (`a.b.__proto__`), or null. Iterative: bodies can nest 100,000 deep. */
export function forbiddenKey(value: unknown): string | null {
  // The top's path is null, not '': a key may be the empty string, and what is under it still has a path below it.
  const stack: Array<{ value: unknown; path: string | null }> = [{ value, path: null }];
  while (stack.length > 0) {
    const { value: current, path } = stack.pop()!;
    if (current === null || typeof current !== 'object') continue;
    for (const key of Object.keys(current)) {
      const child = (current as Record<string, unknown>)[key];
      const at = path === null ? key : `${path}.${key}`;
      if (key === '__proto__') return at;
      if (key === 'constructor' && child !== null && typeof child === 'object' && Object.hasOwn(child, 'prototype')) return `${at}.prototype`;
      stack.push({ value: child, path: at });
    }
  }
  return null;
}

export function registerJsonBodyParser(app: FastifyInstance): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = body as string;
    if (text.length === 0) return done(new HttpError(400, 'The body is empty, but its content-type says JSON.'), undefined);
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      return done(new HttpError(400, `The body is not valid JSON: ${(error as Error).message}`), undefined);
    }
    const key = forbiddenKey(value);
    if (key !== null) {
      return done(new HttpError(400, `The body has the key '${key}', which is never accepted (it could change the prototype of objects): nothing was changed.`, { field: key }), undefined);
    }
    done(null, value);
  });
}
