/**
 * GET /api/notices?before&unread&limit: the signed-in person's notices, newest first, with their
 * unread count and the cursor of the next (older) page (common/schemas/notifications.ts).
 */
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { NoticePage } from '../../../../common/schemas/notifications';
import { api } from '../../../lib/api';

export interface NoticesQuery {
  /** Only notices older than this id (the previous page's next_before). */
  before?: number;
  unreadOnly?: boolean;
  limit?: number;
}

/** Every query of this feature starts with this key: marking read invalidates them all. */
export const NOTICES_KEY = ['notices'] as const;

/** How many notices the bell lists, and how often it asks. */
const BELL_LIMIT = 10;
const BELL_INTERVAL_MS = 60_000;

function getNotices({ before, unreadOnly, limit }: NoticesQuery, signal?: AbortSignal, quiet = false) {
  return api<NoticePage>('/api/notices', { query: { before, unread: unreadOnly ? 'true' : undefined, limit }, signal, quiet });
}

/** A page of the notices page. */
export function useNotices(query: NoticesQuery) {
  return useQuery(
    queryOptions({
      queryKey: [...NOTICES_KEY, 'page', query],
      queryFn: ({ signal }) => getNotices(query, signal),
      placeholderData: keepPreviousData,
      staleTime: 0,
    }),
  );
}

/**
 * The bell's latest notices and unread count: asked again every minute while the tab shows and
 * whenever the window gets the focus back. A poll that fails is quiet (no toast, no error screen,
 * the last count stays): the person did not ask for it, and the next poll tries again.
 */
export function useLatestNotices() {
  const query = useQuery({
    queryKey: [...NOTICES_KEY, 'latest'],
    queryFn: ({ signal }) => getNotices({ limit: BELL_LIMIT }, signal, true),
    refetchInterval: BELL_INTERVAL_MS,
    staleTime: 0,
  });
  const { refetch } = query;
  useEffect(() => {
    // Not TanStack's focus manager: it listens to visibilitychange, which stays quiet when the
    // person comes back from another window beside this one.
    const onFocus = () => void refetch();
    window.addEventListener('focus', onFocus);
    return () => window.removeEventListener('focus', onFocus);
  }, [refetch]);
  return query;
}
