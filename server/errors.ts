/**
 * Errors a service may throw; the one error handler in app.ts turns them into responses with
 * `message` and `severity` (SPEC.md §8), plus `redirect` where the web app should go.
 */
import type { Redirect } from '../common/schemas/error';

export type { Redirect };

export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly extra: { redirect?: Redirect; field?: string; severity?: 'ERROR' | 'WARNING' } = {},
  ) {
    super(message);
  }
}

export const badRequest = (message: string, field?: string) => new HttpError(400, message, { field });
export const unauthorized = (message = 'Please sign in.') => new HttpError(401, message);
export const forbidden = (message = 'You are not allowed to do this.', redirect?: Redirect) =>
  new HttpError(403, message, { redirect });
export const notFound = (message = 'Not found.') => new HttpError(404, message);
/** A conflict with what exists; `field` when it is about one input (a taken name), for the form to show it there. */
export const conflict = (message: string, field?: string) => new HttpError(409, message, { severity: 'WARNING', field });
export const unavailable = (message: string) => new HttpError(503, message);
