/**
 * "Approval mail" on the notices page (issue 34 item 1): a person who settles approvals chooses a mail per request
 * waiting, or one digest a day at 07:00 in their zone (the browser's, sent when they choose). Saved as chosen, like
 * the page's other switch; the bell is the same either way. Shown only to those the policy lets choose (`approval.mail`).
 */
import { Paper, Radio, Stack, Text, Title } from '@mantine/core';
import { DIGEST_HOUR, type MailPreferences } from '../../../../common/schemas/notifications';
import { localTimeZone } from '../../../../common/zones';
import { notifySuccess } from '../../../lib/notifications';
import { useMailPreferences, useSaveMailPreferences } from '../api/mail-preferences';

const HOUR = `${String(DIGEST_HOUR).padStart(2, '0')}:00`;

export function ApprovalMailPanel() {
  const preferences = useMailPreferences(true);
  const save = useSaveMailPreferences();
  const current = preferences.data;
  // The zone the digest would come in if chosen now: the browser's; the saved one once it is the choice.
  const zone = current?.approval_mail === 'digest' ? current.time_zone : (localTimeZone() ?? 'UTC');

  const choose = (value: string) => {
    const approval_mail = value as MailPreferences['approval_mail'];
    save.mutate({ approval_mail, time_zone: localTimeZone() ?? 'UTC' }, {
      onSuccess: (saved) => notifySuccess(saved.approval_mail === 'digest'
        ? `Approval work now comes in one mail a day at ${HOUR} (${saved.time_zone}).`
        : 'Approval work now comes in a mail per request.'),
    });
  };

  return (
    <Paper withBorder p="md" component="section" aria-labelledby="approval-mail-title">
      <Stack gap="xs">
        <Title order={2} size="h4" id="approval-mail-title">Approval mail</Title>
        <Radio.Group
          value={current?.approval_mail ?? null}
          onChange={choose}
          label="How requests waiting for your approval are mailed to you"
          description="The bell tells you of each request either way."
        >
          <Stack gap="xs" mt="xs">
            <Radio value="each" disabled={!current || save.isPending} label="A mail per request" description="As your organization's notification rules send them." />
            <Radio
              value="digest"
              disabled={!current || save.isPending}
              label="A daily digest"
              description={`One mail a day at ${HOUR} (${zone}): how many requests wait on Pending Tasks and the oldest. None when nothing waits.`}
            />
          </Stack>
        </Radio.Group>
        {current && !current.email_configured && (
          <Text size="sm" c="dimmed">This portal sends no mail yet (no mail server is set up); your choice applies once it does.</Text>
        )}
      </Stack>
    </Paper>
  );
}
