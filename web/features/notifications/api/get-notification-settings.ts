/** GET /api/organizations/{id}/notifications: the organization's rules, or the defaults while none are saved. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { NotificationSettingsView } from '../../../../common/schemas/notifications';
import { api } from '../../../lib/api';
import { notificationKeys, settingsApiPath } from './keys';

function getNotificationSettings(organizationId: string, signal?: AbortSignal): Promise<NotificationSettingsView> {
  return api<NotificationSettingsView>(settingsApiPath(organizationId), { signal });
}

const notificationSettingsQueryOptions = (organizationId: string) =>
  queryOptions({
    queryKey: notificationKeys.settings(organizationId),
    queryFn: ({ signal }) => getNotificationSettings(organizationId, signal),
  });

export function useNotificationSettings(organizationId: string, enabled: boolean) {
  return useQuery({ ...notificationSettingsQueryOptions(organizationId), enabled: !!organizationId && enabled });
}
