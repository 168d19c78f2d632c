/**
 * The page and order of each pending list, kept in the URL query like every list's (docs/decisions.md
 * "List filters", "Sorting"): `?approveCertificatesPage=3&acknowledgeLicensesSort=license_name`. Four
 * lists share the screen, so each has its own keys; page 1 and the usual order leave the URL. Each
 * change is a history entry.
 */
import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { PENDING_CERTIFICATE_SORTS, PENDING_LICENSE_SORTS } from '../../../../common/sorts';
import { sortIn } from '../../../components/useListSearch';
import type { PendingKind, PendingPage } from './api/get-pending';

export type PendingList = 'certificates' | 'licenses';

const listName = (list: PendingList) => (list === 'certificates' ? 'Certificates' : 'Licenses');
/** The URL's key of a list's page (`approveCertificatesPage`). */
export const pageKeyOf = (kind: PendingKind, list: PendingList) => `${kind}${listName(list)}Page`;
/** The URL's key of a list's order (`approveCertificatesSort`), given to useListSort with its page's key. */
export const sortKeyOf = (kind: PendingKind, list: PendingList) => `${kind}${listName(list)}Sort`;

const pageIn = (params: URLSearchParams, key: string) => {
  const requested = Number(params.get(key));
  return Number.isInteger(requested) && requested > 0 ? requested : 1;
};

/** The 1-based pages of the two lists of one kind, their offsets for the call, and a setter. */
export function usePendingPages(kind: PendingKind, pageSize: number) {
  const [params, setParams] = useSearchParams();
  const certificates = pageIn(params, pageKeyOf(kind, 'certificates'));
  const licenses = pageIn(params, pageKeyOf(kind, 'licenses'));

  const certificatesSort = sortIn(params, PENDING_CERTIFICATE_SORTS, sortKeyOf(kind, 'certificates'));
  const licensesSort = sortIn(params, PENDING_LICENSE_SORTS, sortKeyOf(kind, 'licenses'));
  const offsets: PendingPage = useMemo(
    () => ({ certificatesOffset: (certificates - 1) * pageSize, licensesOffset: (licenses - 1) * pageSize, certificatesSort, licensesSort }),
    [certificates, licenses, pageSize, certificatesSort, licensesSort],
  );

  const setPage = useCallback(
    (list: PendingList, page: number) => {
      // The browser's URL holds every navigation made so far, even one not yet rendered
      // (components/useListSearch.ts says why).
      const next = new URLSearchParams(window.location.search);
      if (page > 1) next.set(pageKeyOf(kind, list), String(page));
      else next.delete(pageKeyOf(kind, list));
      setParams(next);
    },
    [kind, setParams],
  );

  return { pages: { certificates, licenses }, offsets, setPage };
}
