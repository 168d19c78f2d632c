/**
 * The banners of vendor support access (issue 33 item 2) above every page of an organization: to its people
 * "Vendor support (name) has access until 14:00 — End now" (End now for those who may end it), to the support person
 * "You act under support request #N until …". A break glass is marked as such, in red.
 */
import { useEffect, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconHeadset } from '@tabler/icons-react';
import { formatDateMinute } from '../../../common/dates';
import { label } from '../../../common/enums';
import type { ActiveSupport } from '../../../common/schemas/support-access';
import { ConfirmModal } from '../../components/ConfirmModal';
import { notifySuccess } from '../../lib/notifications';
import { ApiError } from '../../lib/api';
import { useActiveSupport, useSupportAction } from './api';

/** "14:00" today, else "12-DEC-2026 14:00", in the viewer's zone. */
function untilText(iso: string, now = new Date()): string {
  const full = formatDateMinute(iso);
  return formatDateMinute(now).slice(0, 11) === full.slice(0, 11) ? full.slice(12) : full;
}

function EndNow({ organizationId, access }: { organizationId: string; access: ActiveSupport }) {
  const [confirming, setConfirming] = useState(false);
  const act = useSupportAction();
  return (
    <>
      <Button size="xs" color="red.9" variant="filled" onClick={() => setConfirming(true)} aria-label={`End support access #${access.request_id} now`}>
        End now
      </Button>
      <ConfirmModal
        opened={confirming}
        onClose={() => setConfirming(false)}
        title={`End support access #${access.request_id}?`}
        confirmLabel="End now"
        pending={act.isPending}
        onConfirm={() =>
          act.mutateAsync({ organizationId, requestId: access.request_id, action: 'end' })
            .then(() => notifySuccess(`Ended the support access of ${access.name}.`))
            .finally(() => setConfirming(false))
        }
      >
        {`${access.name} is refused from the next click on.`}
      </ConfirmModal>
    </>
  );
}

export function SupportBanner({ organizationId }: { organizationId: string | undefined }) {
  const active = useActiveSupport(organizationId);
  const { refetch } = active;
  const queryClient = useQueryClient();
  // Another read of this organization refused (the access ended): the banner asks again now, not at the next minute.
  useEffect(() => {
    if (!organizationId) return;
    return queryClient.getQueryCache().subscribe((event) => {
      const { error } = event.query.state;
      const key = JSON.stringify(event.query.queryKey);
      if (event.type === 'updated' && error instanceof ApiError && (error.status === 403 || error.status === 404)
        && key.includes(organizationId) && !key.includes('"active"')) void refetch();
    });
  }, [queryClient, organizationId, refetch]);
  // An access that can no longer be read has ended for this person: no banner, whatever was read before.
  if (!organizationId || active.isError || !active.data?.length) return null;
  return (
    <Stack gap="xs" mb="md">
      {active.data.map((access) => {
        const glass = access.break_glass ? 'Break glass: ' : '';
        const text = access.mine
          ? `${glass}You act under support request #${access.request_id} as ${label(access.role)} until ${untilText(access.date_until)}.`
          : `${glass}Vendor support (${access.name}) has access as ${label(access.role)} until ${untilText(access.date_until)}.`;
        return (
          <Alert
            key={access.request_id}
            role="status"
            color={access.break_glass ? 'red' : access.mine ? 'blue' : 'yellow'}
            icon={access.break_glass ? <IconAlertTriangle size={18} aria-hidden /> : <IconHeadset size={18} aria-hidden />}
            p="xs"
          >
            <Group justify="space-between" gap="xs" wrap="wrap">
              <Text size="sm" fw={500} className="break-anywhere" data-testid="support-banner">
                {text}
              </Text>
              {access.can_end ? <EndNow organizationId={organizationId} access={access} /> : null}
            </Group>
          </Alert>
        );
      })}
    </Stack>
  );
}
