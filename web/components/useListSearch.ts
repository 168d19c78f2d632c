/**
 * The filters and page of a list kept in the URL query, so a reload, a bookmark or the back button
 * shows the same rows (docs/decisions.md "List filters"). Changing a filter goes back to the first
 * page; each change is a history entry, so Back undoes it. Two kinds of list use it:
 * - a text filter, `?filter=anna&page=2` (members, journal, admin users and organizations);
 * - the status lists of SPEC.md §2, `?name=lab&hideExpired=true&page=2` (certificates, licenses).
 */
import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';

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

/** A list filtered by one text, `?filter=`. */
export function useListSearch(pageSize: number) {
  const { params, page, offset, setFilters, setPage } = useListQuery(pageSize);
  const filter = params.get('filter') ?? '';
  const setFilter = useCallback((text: string) => setFilters({ filter: text }), [setFilters]);
  return { filter, page, offset, setFilter, setPage };
}

type StatusFilters = {
  name: string;
  hideExpired: boolean;
  hideRequests: boolean;
  hideValid: boolean;
};

export type StatusFlag = 'hideExpired' | 'hideRequests' | 'hideValid';

/** What the list calls send: empty filters are left out of the request. */
export interface StatusListRequest {
  name?: string;
  hideExpired?: boolean;
  hideRequests?: boolean;
  hideValid?: boolean;
  offset: number;
  limit: number;
}

const on = (value: string | null) => value === 'true' || value === '1';

/**
 * The request of a status list for a query string: what useStatusListSearch asks for, and what a
 * route asks for ahead of rendering (web/router.tsx), the same query key.
 */
export function statusListRequest(params: URLSearchParams, pageSize: number): StatusListRequest {
  return {
    name: params.get('name') || undefined,
    hideExpired: on(params.get('hideExpired')) || undefined,
    hideRequests: on(params.get('hideRequests')) || undefined,
    hideValid: on(params.get('hideValid')) || undefined,
    offset: (pageOf(params) - 1) * pageSize,
    limit: pageSize,
  };
}

/** A status list: a name filter and the three hide toggles. */
export function useStatusListSearch(pageSize: number) {
  const { params, page, setFilters, setPage } = useListQuery(pageSize);

  const filters: StatusFilters = useMemo(
    () => ({
      name: params.get('name') ?? '',
      hideExpired: on(params.get('hideExpired')),
      hideRequests: on(params.get('hideRequests')),
      hideValid: on(params.get('hideValid')),
    }),
    [params],
  );

  const request = useMemo(() => statusListRequest(params, pageSize), [params, pageSize]);

  /** Flips one toggle as the URL has it now, and applies the text typed so far with it. */
  const toggle = useCallback(
    (flag: StatusFlag, name: string) => setFilters({ name, [flag]: !on(currentParams().get(flag)) }),
    [setFilters],
  );

  return { filters, page, request, setFilters, toggle, setPage };
}

export type StatusListSearch = ReturnType<typeof useStatusListSearch>;
