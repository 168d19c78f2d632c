/**
 * The rules tab: whether the rules are the defaults (nothing saved yet) or when they were saved,
 * and the form. A save shows a toast and starts the form afresh with what the server kept.
 */
import { Badge, Group, Stack, Text } from '@mantine/core';
import { formatDateTime } from '../../../../common/dates';
import type { Organization } from '../../../../common/schemas/organization';
import { QueryList } from '../../../components/QueryList';
import { notifySuccess } from '../../../lib/notifications';
import { useNotificationSettings } from '../api/get-notification-settings';
import { useSaveNotificationSettings } from '../api/save-notification-settings';
import { RulesForm } from './RulesForm';

export function RulesPanel({ organization }: { organization: Organization }) {
  const organizationId = organization.organization_id;
  const settings = useNotificationSettings(organizationId, true);
  const save = useSaveNotificationSettings();
  const query = { ...settings, data: settings.data ? [settings.data] : undefined };

  return (
    <QueryList query={query} noun="notification rules">
      {([current]) => (
        <Stack gap="md">
          <Group gap="xs" wrap="wrap">
            {current.is_default ? (
              <>
                <Badge variant="light" color="gray" tt="none">
                  Defaults
                </Badge>
                <Text size="sm" c="dimmed">
                  No rules saved for {organization.organization_name} yet: these are the portal's defaults.
                </Text>
              </>
            ) : (
              <Text size="sm" c="dimmed">
                Saved {current.date_updated ? formatDateTime(current.date_updated) : ''}.
              </Text>
            )}
          </Group>
          <RulesForm
            // A save starts the form afresh with what the server kept.
            key={current.date_updated ?? 'defaults'}
            settings={current}
            operator={organization.organization_role === 'OPERATOR'}
            onSubmit={async (body) => {
              await save.mutateAsync({ organizationId, settings: body });
              notifySuccess(`Saved the notification rules of ${organization.organization_name}.`);
            }}
          />
        </Stack>
      )}
    </QueryList>
  );
}
