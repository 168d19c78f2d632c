/** GET and PUT /api/notices/preferences: the signed-in person's own choice of mails about approval work. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { MailPreferences, MailPreferencesBody } from '../../../../common/schemas/notifications';
import { api } from '../../../lib/api';

const PATH = '/api/notices/preferences';
const KEY = ['notices', 'preferences'] as const;

export function useMailPreferences(enabled: boolean) {
  return useQuery({ queryKey: KEY, queryFn: ({ signal }) => api<MailPreferences>(PATH, { signal }), enabled });
}

export function useSaveMailPreferences() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: MailPreferencesBody) => api<MailPreferences>(PATH, { method: 'PUT', body }),
    onSuccess: (saved) => queryClient.setQueryData(KEY, saved),
  });
}
