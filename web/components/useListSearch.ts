/**
 * The filters, order and page of a list kept in the URL query, so a reload, a bookmark or the back
 * button shows the same rows (docs/decisions.md "List filters", "Sorting"). Changing a filter or the
 * order goes back to the first page; each change is a history entry, so Back undoes it. Two kinds of
 * list use it:
 * - a text filter, `?filter=anna&sort=member_email&page=2` (members, journal, admin users and organizations);
 * - the status lists of SPEC.md §2, `?name=lab&hideExpired=true&sort=-date_not_after&page=2` (certificates, licenses),
 *   with issue 12's `status=approved,expired`, `expiringWithin=30` and `untilFrom=2026-03-01&untilTo=2026-03-31`
 *   (days of the viewer's calendar, both included, as the Until column shows them).
 */
import { useCallback, useMemo } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import type { SortOf } from '../../common/sorts';
import { CERTIFICATE_STATUS_FILTERS, EXPIRING_MAX_DAYS, LICENSE_STATUS_FILTERS } from '../../common/status-filters';

/** Filters to set; an empty text or a false toggle leaves the URL. */
type FilterPatch = Record<string, string | boolean | undefined>;

/**
 * The query string as it is now. React Router hands a functional update the params of the last
 * render, and renders navigations in a transition: a second change made before the first one
 * has rendered (a quick click, then Enter) would start from the old query and undo the first.
 * The browser's URL already holds every navigation made so far.
 */
const currentParams = () => new URLSearchParams(window.location.search);

/** The 1-based page the query asks for. */
function pageOf(params: URLSearchParams): number {
  const requested = Number(params.get('page'));
  return Number.isInteger(requested) && requested > 0 ? requested : 1;
}

function useListQuery(pageSize: number) {
  const [params, setParams] = useSearchParams();
  const page = pageOf(params);

  const change = useCallback(
    (edit: (next: URLSearchParams) => void) => {
      const next = currentParams();
      edit(next);
      setParams(next);
    },
    [setParams],
  );

  const setFilters = useCallback(
    (patch: FilterPatch) =>
      change((next) => {
        for (const [key, value] of Object.entries(patch)) {
          if (value === '' || value === false || value === undefined) next.delete(key);
          else next.set(key, String(value));
        }
        next.delete('page');
      }),
    [change],
  );

  const setPage = useCallback(
    (value: number) =>
      change((next) => {
        if (value > 1) next.set('page', String(value));
        else next.delete('page');
      }),
    [change],
  );

  return { params, page, offset: (page - 1) * pageSize, setFilters, setPage };
}

/**
 * The order the URL asks for (`?sort=-date_not_after`) if it is one the list has (common/schemas:
 * the API's own list), else none: the list's usual order, rather than a 400 for an edited address.
 */
export function sortIn<C extends string>(params: URLSearchParams, columns: readonly C[], param = 'sort'): SortOf<C> | undefined {
  const value = params.get(param);
  if (!value) return undefined;
  return (columns as readonly string[]).includes(value.startsWith('-') ? value.slice(1) : value) ? (value as SortOf<C>) : undefined;
}

/**
 * A list's order in the URL: `sort` for the request (none: the server's usual order), `order` for
 * the table (the usual one when the URL names none), and `setSort`, which goes back to the first
 * page and leaves the usual order out of the URL. `param` and `pageParam` name them where a screen
 * has several lists (the pending tasks).
 */
export function useListSort<C extends string>(columns: readonly C[], usual: SortOf<C>, param = 'sort', pageParam = 'page') {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const sort = sortIn(params, columns, param);
  const setSort = useCallback(
    (next: string) => {
      const query = currentParams();
      if (next === usual) query.delete(param);
      else query.set(param, next);
      query.delete(pageParam);
      // The hash stays: a tab's list (the member's Certificates, #certificates) keeps its tab.
      const search = query.toString();
      navigate({ search: search ? `?${search}` : '', hash: window.location.hash });
    },
    [usual, param, pageParam, navigate],
  );
  return { sort, order: sort ?? usual, setSort };
}

/** A list filtered by one text, `?filter=` (its order: useListSort). */
export function useListSearch(pageSize: number) {
  const { params, page, offset, setFilters, setPage } = useListQuery(pageSize);
  const filter = params.get('filter') ?? '';
  const setFilter = useCallback((text: string) => setFilters({ filter: text }), [setFilters]);
  return { filter, page, offset, setFilter, setPage };
}

/** Which status list: the chips it offers and what its Until column shows. */
export type StatusListKind = 'certificates' | 'licenses';

type StatusFilters = {
  name: string;
  hideExpired: boolean;
  hideRequests: boolean;
  hideValid: boolean;
  /** The status chips chosen, in the API's order. */
  status: string[];
  expiringWithin: number | null;
  /** Days of the viewer's calendar, `YYYY-MM-DD`, or ''. */
  untilFrom: string;
  untilTo: string;
};

export type StatusFlag = 'hideExpired' | 'hideRequests' | 'hideValid';

/** What the list calls send: empty filters are left out of the request. */
export interface StatusListRequest<S extends string = string> {
  name?: string;
  hideExpired?: boolean;
  hideRequests?: boolean;
  hideValid?: boolean;
  status?: string;
  expiringWithin?: number;
  untilFrom?: string;
  untilBefore?: string;
  sort?: S;
  offset: number;
  limit: number;
}

const on = (value: string | null) => value === 'true' || value === '1';

const STATUSES: Record<StatusListKind, readonly string[]> = { certificates: CERTIFICATE_STATUS_FILTERS, licenses: LICENSE_STATUS_FILTERS };

/** The chips the URL names that the list has, in the API's order (an edited address is not a 400). */
function statusesIn(params: URLSearchParams, kind: StatusListKind): string[] {
  const asked = (params.get('status') ?? '').split(',');
  return STATUSES[kind].filter((s) => asked.includes(s));
}

function expiringIn(params: URLSearchParams): number | null {
  const days = Number(params.get('expiringWithin'));
  return Number.isInteger(days) && days >= 1 && days <= EXPIRING_MAX_DAYS ? days : null;
}

const DAY_TEXT = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A `YYYY-MM-DD` of the URL, if it is a real day. */
function dayIn(params: URLSearchParams, name: string): string {
  const value = params.get(name) ?? '';
  const match = DAY_TEXT.exec(value);
  if (!match) return '';
  const date = new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  return date.getDate() === Number(match[3]) ? value : '';
}

/**
 * The instant a day of the viewer's calendar starts (`after` days later). A license's Until is its
 * last valid day, the day of the instant before its exclusive end: its end is 1 ms later than a
 * certificate's not-after on the same day.
 */
function dayStart(day: string, after: number, kind: StatusListKind): string {
  const [y, m, d] = day.split('-').map(Number);
  return new Date(new Date(y, m - 1, d + after).getTime() + (kind === 'licenses' ? 1 : 0)).toISOString();
}

/**
 * The request of a status list for a query string: what useStatusListSearch asks for, and what a
 * route asks for ahead of rendering (web/router.tsx), the same query key.
 */
export function statusListRequest<C extends string>(
  params: URLSearchParams, pageSize: number, sorts: readonly C[], kind: StatusListKind,
): StatusListRequest<SortOf<C>> {
  const untilFrom = dayIn(params, 'untilFrom');
  const untilTo = dayIn(params, 'untilTo');
  return {
    name: params.get('name') || undefined,
    hideExpired: on(params.get('hideExpired')) || undefined,
    hideRequests: on(params.get('hideRequests')) || undefined,
    hideValid: on(params.get('hideValid')) || undefined,
    status: statusesIn(params, kind).join(',') || undefined,
    expiringWithin: expiringIn(params) ?? undefined,
    untilFrom: untilFrom ? dayStart(untilFrom, 0, kind) : undefined,
    untilBefore: untilTo ? dayStart(untilTo, 1, kind) : undefined,
    sort: sortIn(params, sorts),
    offset: (pageOf(params) - 1) * pageSize,
    limit: pageSize,
  };
}

/** A status list: a name filter, the three hide toggles, issue 12's filters and one of `sorts`. */
export function useStatusListSearch<C extends string>(pageSize: number, sorts: readonly C[], kind: StatusListKind) {
  const { params, page, setFilters, setPage } = useListQuery(pageSize);

  const filters: StatusFilters = useMemo(
    () => ({
      name: params.get('name') ?? '',
      hideExpired: on(params.get('hideExpired')),
      hideRequests: on(params.get('hideRequests')),
      hideValid: on(params.get('hideValid')),
      status: statusesIn(params, kind),
      expiringWithin: expiringIn(params),
      untilFrom: dayIn(params, 'untilFrom'),
      untilTo: dayIn(params, 'untilTo'),
    }),
    [params, kind],
  );

  const request = useMemo(() => statusListRequest(params, pageSize, sorts, kind), [params, pageSize, sorts, kind]);

  /** Flips one toggle as the URL has it now, and applies the text typed so far with it. */
  const toggle = useCallback(
    (flag: StatusFlag, name: string) => setFilters({ name, [flag]: !on(currentParams().get(flag)) }),
    [setFilters],
  );

  return { kind, filters, page, request, setFilters, toggle, setPage };
}

export type StatusListSearch = ReturnType<typeof useStatusListSearch<string>>;
