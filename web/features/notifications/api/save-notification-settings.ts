/** PUT /api/organizations/{id}/notifications: the organization's rules, as the API's own schema checks them. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { NotificationSettingsBody, NotificationSettingsView } from '../../../../common/schemas/notifications';
import { api } from '../../../lib/api';
import { notificationKeys, settingsApiPath } from './keys';

function saveNotificationSettings({ organizationId, settings }: { organizationId: string; settings: NotificationSettingsBody }) {
  return api<NotificationSettingsView>(settingsApiPath(organizationId), { method: 'PUT', body: settings });
}

export function useSaveNotificationSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveNotificationSettings,
    onSuccess: (saved, { organizationId }) => queryClient.setQueryData(notificationKeys.settings(organizationId), saved),
  });
}
