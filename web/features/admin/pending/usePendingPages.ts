/**
 * The page of each pending list, kept in the URL query like every list's page (docs/decisions.md
 * "List filters"): `?approveCertificatesPage=3&acknowledgeLicensesPage=2`. Four lists share the
 * screen, so each has its own key; page 1 leaves the URL. Each change is a history entry.
 */
import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import type { PendingKind, PendingPage } from './api/get-pending';

export type PendingList = 'certificates' | 'licenses';

const keyOf = (kind: PendingKind, list: PendingList) => `${kind}${list === 'certificates' ? 'Certificates' : 'Licenses'}Page`;

const pageIn = (params: URLSearchParams, key: string) => {
  const requested = Number(params.get(key));
  return Number.isInteger(requested) && requested > 0 ? requested : 1;
};

/** The 1-based pages of the two lists of one kind, their offsets for the call, and a setter. */
export function usePendingPages(kind: PendingKind, pageSize: number) {
  const [params, setParams] = useSearchParams();
  const certificates = pageIn(params, keyOf(kind, 'certificates'));
  const licenses = pageIn(params, keyOf(kind, 'licenses'));

  const offsets: PendingPage = useMemo(
    () => ({ certificatesOffset: (certificates - 1) * pageSize, licensesOffset: (licenses - 1) * pageSize }),
    [certificates, licenses, pageSize],
  );

  const setPage = useCallback(
    (list: PendingList, page: number) => {
      // The browser's URL holds every navigation made so far, even one not yet rendered
      // (components/useListSearch.ts says why).
      const next = new URLSearchParams(window.location.search);
      if (page > 1) next.set(keyOf(kind, list), String(page));
      else next.delete(keyOf(kind, list));
      setParams(next);
    },
    [kind, setParams],
  );

  return { pages: { certificates, licenses }, offsets, setPage };
}
