/** POST /api/notices/read {notice_ids?}: marks the given notices read, or all of the person's; answers the unread count. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { NOTICES_KEY } from './get-notices';

function markNoticesRead(noticeIds?: number[]) {
  return api<{ unread: number }>('/api/notices/read', { method: 'POST', body: noticeIds ? { notice_ids: noticeIds } : {} });
}

/** `mutate()` marks all read, `mutate([id])` one; the bell and the notices page are asked again after. */
export function useMarkNoticesRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (noticeIds?: number[]) => markNoticesRead(noticeIds),
    onSettled: () => queryClient.invalidateQueries({ queryKey: NOTICES_KEY }),
  });
}
