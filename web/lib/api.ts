/**
 * The API client: every call sends `X-Requested-With: JavaScript` and the bearer access token
 * (SPEC.md §7), and failed calls are handled here once (SPEC.md §8):
 *
 * - 401, 499: the session is over; drop the token and go to Welcome (sign in again), coming
 *   back to the current page afterwards.
 * - 403: AccessError, or the screen the body names (`redirect`: AuthWelcome, AccessError).
 * - 500: NetworkError, or the screen the body names.
 * - 409: SPEC.md §8 sends it to NetworkError like 500, but here 409 is what an action answers
 *   for a stale license version or a duplicate (DECISIONS.md). Leaving the page would lose the
 *   person's work and hide the reason, so a 409 that carries a message shows it as a toast and
 *   stays; a 409 with a `redirect`, or without a message, still goes to that screen / NetworkError.
 * - 502/503/504 without a message (a proxy in front of a stopped server) count as network
 *   issues; with a message (e.g. "the secret is not yet provided") they are a toast.
 * - 400 or 409 that names a `field` (common/schemas/error.ts; a 409 so names a taken value: a
 *   certificate's DN, an ordinal): the form that sent it shows the message under that field
 *   (lib/forms.ts applyServerError, docs/decisions.md "Forms"); only when no form did is it a toast.
 * - Anything else (400, 404, 422, 429...): a toast, and the page stays.
 * - Except on 204, the body's messages are shown as toasts: a list as one error each, a
 *   message as an error (severity ERROR) or a warning.
 * - The network itself failing (no answer at all) goes to NetworkError.
 *
 * Callers receive an ApiError after this handling; they need not show anything themselves.
 */
import type { ErrorBody as ServerErrorBody } from '../../common/schemas/error';
import { dropUser, getAccessToken, idTokenOf } from './access-token';
import { isSessionScreen, navigateTo, pathOfRouteName, PATHS } from './navigation';
import { notifyFailure } from './notifications';
import { session } from './session';

type QueryValue = string | number | boolean | null | undefined;

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';
  query?: Record<string, QueryValue>;
  /** A JSON body; a string is sent as text/plain (the master secret, for example). */
  body?: unknown;
  signal?: AbortSignal;
  /** Skip the shared failure handling (the caller handles every failure itself). */
  quiet?: boolean;
  /** 'blob': a successful body is returned as a Blob (files such as archives), not as text or JSON. */
  responseType?: 'blob';
}

export interface ApiResponse<T> {
  data: T;
  status: number;
  headers: Headers;
}

/** An error body as it may arrive (common/schemas/error.ts): read defensively, every field may be missing. */
type ErrorBody = Partial<ServerErrorBody>;

export class ApiError extends Error {
  readonly status: number;
  readonly body: unknown;

  constructor(status: number, body: unknown) {
    const message = (body as ErrorBody | null)?.message;
    super(typeof message === 'string' && message ? message : `Request failed with status ${status}`);
    this.name = 'ApiError';
    this.status = status;
    this.body = body;
  }

  get field(): string | undefined {
    return (this.body as ErrorBody | null)?.field;
  }

  /** Set by the form that showed this 400 under the field it names (lib/forms.ts): no toast then. */
  shownOnField = false;
}

/** The network failed: no answer from the server at all. */
export class NetworkError extends Error {
  constructor(cause: unknown) {
    super('Network issues, please try again', { cause });
    this.name = 'NetworkError';
  }
}

function url(path: string, query?: Record<string, QueryValue>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null && value !== '') search.set(key, String(value));
  }
  const text = search.toString();
  return text ? `${path}${path.includes('?') ? '&' : '?'}${text}` : path;
}

async function readBody(response: Response): Promise<unknown> {
  if (response.status === 204) return undefined;
  const text = await response.text();
  if (!text) return undefined;
  const type = response.headers.get('content-type') ?? '';
  if (type.includes('json')) {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return text;
}

const hasMessage = (body: unknown) => typeof (body as ErrorBody | null)?.message === 'string';

function currentLocation(): string {
  return `${window.location.pathname}${window.location.search}${window.location.hash}`;
}

/** Shared handling of a failed call (see the top of this file). */
function handleFailure(error: ApiError): void {
  const { status, body } = error;
  const field = (body as ErrorBody | null)?.field;
  if ((status === 400 || status === 409) && typeof field === 'string' && field) {
    // The caller's failure callback (TanStack Query's onError, a catch after await) runs in the
    // microtasks right after this call fails, before this timer: a form takes the message there.
    setTimeout(() => {
      if (!error.shownOnField) notifyFailure(body);
    });
  } else if (status !== 204) {
    notifyFailure(body);
  }
  const named = pathOfRouteName((body as ErrorBody | null)?.redirect);

  if (status === 401 || status === 499) {
    if (!isSessionScreen(window.location.pathname)) session.setReturnUrl(currentLocation());
    void dropUser()
      .catch(() => undefined)
      .finally(() => navigateTo(PATHS.login, { replace: true }));
  } else if (status === 403) {
    navigateTo(named ?? PATHS.accessError);
  } else if (status === 409) {
    if (named) navigateTo(named);
    else if (!hasMessage(body)) navigateTo(PATHS.networkError);
  } else if (status === 500) {
    navigateTo(named ?? PATHS.networkError);
  } else if (status >= 502 && status <= 504 && !hasMessage(body)) {
    navigateTo(PATHS.networkError);
  } else if (named) {
    navigateTo(named);
  }
}

export async function apiRequest<T>(path: string, options: RequestOptions = {}): Promise<ApiResponse<T>> {
  const headers = new Headers({ Accept: 'application/json', 'X-Requested-With': 'JavaScript' });
  const token = await getAccessToken().catch(() => null);
  if (token) headers.set('Authorization', `Bearer ${token}`);
  const idToken = token ? idTokenOf(token) : null;
  if (idToken) headers.set('X-Id-Token', idToken);

  let body: BodyInit | undefined;
  if (typeof options.body === 'string') {
    headers.set('Content-Type', 'text/plain');
    body = options.body;
  } else if (options.body !== undefined) {
    headers.set('Content-Type', 'application/json');
    body = JSON.stringify(options.body);
  }

  let response: Response;
  try {
    response = await fetch(url(path, options.query), {
      method: options.method ?? 'GET',
      headers,
      body,
      signal: options.signal,
      credentials: 'same-origin',
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    if (!options.quiet) navigateTo(PATHS.networkError);
    throw new NetworkError(error);
  }

  if (response.ok && options.responseType === 'blob') {
    return { data: (await response.blob()) as T, status: response.status, headers: response.headers };
  }
  const data = await readBody(response);
  if (!response.ok) {
    const error = new ApiError(response.status, data);
    if (!options.quiet) handleFailure(error);
    throw error;
  }
  return { data: data as T, status: response.status, headers: response.headers };
}

/** The body of a successful call. */
export async function api<T>(path: string, options?: RequestOptions): Promise<T> {
  return (await apiRequest<T>(path, options)).data;
}

/**
 * A list and its X-Total-Count header (ARCHITECTURE.md "lists"), and when the server said it changes by
 * time alone (X-Changes-In, ms from its answer) as an instant of this browser's clock: null for never.
 */
export async function apiList<T>(path: string, options?: RequestOptions): Promise<{ items: T[]; total: number; changesAt: number | null }> {
  const { data, headers } = await apiRequest<T[]>(path, options);
  const items = Array.isArray(data) ? data : [];
  const total = Number(headers.get('x-total-count'));
  const changesIn = Number(headers.get('x-changes-in') ?? Number.NaN);
  return {
    items,
    total: Number.isFinite(total) && headers.has('x-total-count') ? total : items.length,
    changesAt: Number.isFinite(changesIn) ? Date.now() + changesIn : null,
  };
}
