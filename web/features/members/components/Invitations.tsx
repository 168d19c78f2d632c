/**
 * The open invitations of an organization on the Members screen (issue 34 item 2): address, role and scope,
 * status, when it expires, and Resend and Revoke where the caller's roles allow them (the invitation's
 * `abilities`, decided on the server). Shown to those who may invite.
 */
import { useState } from 'react';
import { Badge, Button, Group, Stack, Title } from '@mantine/core';
import { formatDateTime } from '../../../../common/dates';
import { label } from '../../../../common/enums';
import type { InvitationStatus } from '../../../../common/invitations';
import type { Invitation } from '../../../../common/schemas/invitation';
import { ConfirmModal } from '../../../components/ConfirmModal';
import { DataTable, type DataColumn } from '../../../components/DataTable';
import { PagedList } from '../../../components/PagedList';
import { notifySuccess } from '../../../lib/notifications';
import { usePageSize } from '../../../lib/preferences';
import { useInvitations, useResendInvitation, useRevokeInvitation } from '../api/invitations';
import { DANGER } from '../../../components/danger';

const STATUS: Record<InvitationStatus, { color: string; text: string }> = {
  PENDING: { color: 'blue', text: 'Pending' },
  EXPIRED: { color: 'gray', text: 'Expired' },
  ACCEPTED: { color: 'green', text: 'Accepted' },
  REVOKED: { color: 'red', text: 'Revoked' },
};

function InvitationActions({ invitation }: { invitation: Invitation }) {
  const [confirming, setConfirming] = useState(false);
  const resend = useResendInvitation();
  const revoke = useRevokeInvitation();
  const ref = { organizationId: invitation.organization_id, invitationId: invitation.invitation_id };
  if (!invitation.abilities.includes('member.invite')) return null;
  return (
    <Group gap="xs" justify="flex-end" wrap="nowrap">
      <Button
        size="xs"
        variant="default"
        aria-label={`Resend the invitation of ${invitation.email}`}
        loading={resend.isPending}
        onClick={() => resend.mutate(ref, { onSuccess: () => notifySuccess(`Sent the invitation to ${invitation.email} again; it now lasts 7 days.`) })}
      >
        Resend
      </Button>
      <Button size="xs" {...DANGER} aria-label={`Revoke the invitation of ${invitation.email}`} onClick={() => setConfirming(true)}>
        Revoke
      </Button>
      <ConfirmModal
        opened={confirming}
        onClose={() => setConfirming(false)}
        title="Revoke the invitation?"
        confirmLabel="Revoke"
        pending={revoke.isPending}
        onConfirm={() =>
          // The row goes away with the answer, and this dialog with it: the toast must not depend on it staying mounted.
          revoke
            .mutateAsync(ref)
            .then(() => notifySuccess(`Revoked the invitation of ${invitation.email}.`))
            .catch(() => setConfirming(false))
        }
      >
        {`Signing in with ${invitation.email} will no longer make them a member. You can invite them again later.`}
      </ConfirmModal>
    </Group>
  );
}

const columns: DataColumn<Invitation>[] = [
  { header: 'Email', rowHeader: true, breakAnywhere: true, cell: (i) => i.email },
  { header: 'Role', cell: (i) => `${label(i.role)} (${label(i.scope)})` },
  {
    header: 'Status',
    // The badge is never cut to "PENDI…" by a narrow column.
    nowrap: true,
    width: '7rem',
    cell: (i) => (
      <Badge color={STATUS[i.status].color} variant="light" size="sm">
        {STATUS[i.status].text}
      </Badge>
    ),
  },
  { header: 'Expires', nowrap: true, cell: (i) => formatDateTime(i.date_expires) },
  { header: 'Invited by', breakAnywhere: true, cell: (i) => i.invited_by ?? '-' },
  { header: 'Actions', headerHidden: true, align: 'end', cell: (i) => <InvitationActions invitation={i} /> },
];

export function Invitations({ organizationId }: { organizationId: string }) {
  const [page, setPage] = useState(1);
  const [pageSize] = usePageSize();
  const invitations = useInvitations(organizationId, { offset: (page - 1) * pageSize, limit: pageSize }, true);
  return (
    <Stack gap="xs">
      <Title order={2} size="h4">
        Invitations
      </Title>
      <PagedList query={invitations} noun="open invitations" emptyText="No open invitations." page={page} pageSize={pageSize} onPage={setPage}>
        {(items) => <DataTable label="Invitations" columns={columns} rows={items} rowKey={(i) => i.invitation_id} minWidth={0} />}
      </PagedList>
    </Stack>
  );
}
