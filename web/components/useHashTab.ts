/**
 * The active tab of a details page kept in the URL hash (#contact, #roles…), so a reload or a
 * shared link opens the same tab (SPEC.md §2). An unknown or missing hash opens the first tab.
 */
import { useCallback } from 'react';
import { useLocation, useNavigate } from 'react-router';

export function useHashTab<T extends string>(tabs: readonly T[]): [T, (tab: string | null) => void] {
  const { hash, pathname, search } = useLocation();
  const navigate = useNavigate();
  const wanted = decodeURIComponent(hash.replace(/^#/, ''));
  const active = (tabs as readonly string[]).includes(wanted) ? (wanted as T) : tabs[0];

  const select = useCallback(
    (tab: string | null) => {
      // Replace: switching tabs is no step the Back button should undo one by one.
      if (tab) void navigate({ pathname, search, hash: tab }, { replace: true });
    },
    [navigate, pathname, search],
  );
  return [active, select];
}
