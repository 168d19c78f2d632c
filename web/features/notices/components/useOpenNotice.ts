/** What opening a notice does, wherever it is listed: marks it read (once), then whatever the list does after. */
import type { Notice } from '../../../../common/schemas/notifications';
import { useMarkNoticesRead } from '../api/mark-notices-read';

export function useOpenNotice(notice: Notice, after?: () => void) {
  const markRead = useMarkNoticesRead();
  return () => {
    if (!notice.date_read) markRead.mutate([notice.notice_id]);
    after?.();
  };
}
