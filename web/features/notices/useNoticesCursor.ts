/**
 * Where the notices page is: `?unread=true` and `?before=<id>` in the URL (a reload or a link shows
 * the same notices), and the cursors of the newer pages in the history entry's state, so "Newer
 * notices" goes back one page as the browser's Back does. The API pages by cursor (next_before),
 * not by number: a notice that arrives meanwhile does not shift the older pages.
 */
import { useLocation, useNavigate, useSearchParams } from 'react-router';

interface CursorState {
  /** The `before` of each newer page, newest first page as 0. */
  newer?: number[];
}

function positiveInteger(text: string | null): number | undefined {
  const value = Number(text);
  return Number.isInteger(value) && value > 0 ? value : undefined;
}

export function useNoticesCursor() {
  const [params] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const before = positiveInteger(params.get('before'));
  const unreadOnly = params.get('unread') === 'true';
  const newer = (location.state as CursorState | null)?.newer ?? [];

  const go = (next: { before?: number; unreadOnly: boolean }, state: CursorState) => {
    const search = new URLSearchParams();
    if (next.unreadOnly) search.set('unread', 'true');
    if (next.before) search.set('before', String(next.before));
    const text = search.toString();
    void navigate({ pathname: location.pathname, search: text ? `?${text}` : '' }, { state });
  };

  return {
    before,
    unreadOnly,
    /** Whether a newer page exists: this is not the first. */
    hasNewer: before !== undefined,
    older: (nextBefore: number) => go({ before: nextBefore, unreadOnly }, { newer: [...newer, before ?? 0] }),
    // An address opened directly has no newer cursors: its newer page is the first.
    newerPage: () => go({ before: newer.at(-1) || undefined, unreadOnly }, { newer: newer.slice(0, -1) }),
    setUnreadOnly: (on: boolean) => go({ unreadOnly: on }, {}),
  };
}
