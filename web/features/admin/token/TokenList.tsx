/**
 * The gateway tokens made (issue 34): name and upn, groups, who made it, expiry, last use and status, with
 * Revoke (confirmed) where the API's abilities allow it. The token text itself is never shown again.
 */
import { useState } from 'react';
import { Badge, Button, Stack, Text, Title } from '@mantine/core';
import { IconBan } from '@tabler/icons-react';
import { formatDate, formatDateTime } from '../../../../common/dates';
import type { ApiToken, TokenStatus } from '../../../../common/schemas/token';
import { ConfirmModal } from '../../../components/ConfirmModal';
import { DataTable, type DataColumn } from '../../../components/DataTable';
import { MONOSPACE } from '../../../components/monospace';
import { QueryList } from '../../../components/QueryList';
import { notifySuccess } from '../../../lib/notifications';
import { useApiTokens, useRevokeToken } from './api/tokens';
import { DANGER } from '../../../components/danger';

const STATUS: Record<TokenStatus, { color: string; text: string }> = {
  active: { color: 'teal', text: 'Active' },
  expired: { color: 'gray', text: 'Expired' },
  revoked: { color: 'red', text: 'Revoked' },
};

function columns(revoke: (token: ApiToken) => void): DataColumn<ApiToken>[] {
  return [
    {
      header: 'Name',
      rowHeader: true,
      breakAnywhere: true,
      cell: (t) => (
        <Stack gap={2}>
          <Text size="sm" fw={500}>
            {t.name}
          </Text>
          <Text size="xs" c="dimmed" style={MONOSPACE}>
            {t.upn}
          </Text>
        </Stack>
      ),
    },
    { header: 'Status', unlabelled: true, cell: (t) => <Badge color={STATUS[t.status].color} variant="light" size="sm">{STATUS[t.status].text}</Badge> },
    { header: 'Groups', cell: (t) => t.groups.join(', ') },
    { header: 'Created by', breakAnywhere: true, cell: (t) => t.created_by },
    { header: 'Expires', nowrap: true, cell: (t) => formatDate(t.date_expires) },
    { header: 'Last used', nowrap: true, cell: (t) => (t.date_last_used ? formatDateTime(t.date_last_used) : 'Never') },
    {
      header: 'Actions',
      headerHidden: true,
      align: 'end',
      cell: (t) =>
        t.abilities.includes('token.revoke') ? (
          <Button {...DANGER} size="xs" leftSection={<IconBan size={14} aria-hidden />} onClick={() => revoke(t)} aria-label={`Revoke ${t.name}`}>
            Revoke
          </Button>
        ) : t.date_revoked ? (
          <Text size="xs" c="dimmed">
            Revoked {formatDate(t.date_revoked)}
          </Text>
        ) : null,
    },
  ];
}

export function TokenList() {
  const tokens = useApiTokens();
  const revoke = useRevokeToken();
  const [revoking, setRevoking] = useState<ApiToken | null>(null);

  const confirm = () => {
    if (!revoking) return;
    revoke.mutate(revoking.token_id, {
      onSuccess: (token) => {
        notifySuccess(`Token ${token.name} revoked.`);
        setRevoking(null);
      },
      // A 409 (revoked meanwhile) is shown by the API layer; the list is asked again either way.
      onError: () => setRevoking(null),
    });
  };

  return (
    <Stack gap="sm">
      <Title order={2} size="h4">
        Tokens made
      </Title>
      <Text size="sm" c="dimmed" maw={720}>
        A revoked token is refused at the gateway's next poll. Tokens made before tokens were listed are not shown; they work until
        they expire or the master secret changes.
      </Text>
      <QueryList query={tokens} noun="tokens" emptyText="No tokens made yet.">
        {(items) => <DataTable label="Tokens made" columns={columns(setRevoking)} rows={items} rowKey={(t) => t.token_id} minWidth={900} />}
      </QueryList>
      <ConfirmModal
        opened={!!revoking}
        onClose={() => setRevoking(null)}
        title="Revoke token?"
        confirmLabel="Revoke token"
        pending={revoke.isPending}
        onConfirm={confirm}
      >
        Revoke <strong>{revoking?.name}</strong> ({revoking?.upn})? Gateways using it are refused from their next poll, on every
        instance. This cannot be undone: make a new token for them.
      </ConfirmModal>
    </Stack>
  );
}
