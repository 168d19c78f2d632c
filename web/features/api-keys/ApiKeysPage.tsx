/**
 * An organization's API keys (issue 32): the list (state badges, roles, creator, expiry, last use), "Create API key"
 * with the secret shown once, and Revoke after a confirmation. For those the policy lets manage keys
 * (`apiKey.manage`: the organization's administrators, the vendor's supervisors); others see why not.
 */
import { useState } from 'react';
import { Button, Group, Stack, Text } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { formatDateTime } from '../../../common/dates';
import { label } from '../../../common/enums';
import type { ApiKey, ApiKeyBody } from '../../../common/schemas/api-keys';
import { ConfirmModal } from '../../components/ConfirmModal';
import { DataTable, type DataColumn } from '../../components/DataTable';
import { Loading } from '../../components/Loading';
import { NoPermission } from '../../components/NoPermission';
import { Page } from '../../components/Page';
import { QueryList } from '../../components/QueryList';
import { useRouteOrganization } from '../../components/useRouteOrganization';
import { allowedIn } from '../../lib/actor';
import { notifySuccess } from '../../lib/notifications';
import { useApiKeys, useCreateApiKey, useRevokeApiKey, type CreatedApiKey } from './api';
import { ApiKeyBadges } from './ApiKeyBadges';
import { ApiKeySecretModal } from './ApiKeySecretModal';
import { CreateApiKeyModal } from './CreateApiKeyModal';
import { DANGER } from '../../components/danger';

function RevokeButton({ apiKey }: { apiKey: ApiKey }) {
  const [confirming, setConfirming] = useState(false);
  const revoke = useRevokeApiKey();
  return (
    <>
      <Button size="xs" {...DANGER} leftSection={<IconTrash size={14} aria-hidden />} aria-label={`Revoke ${apiKey.name}`} onClick={() => setConfirming(true)}>
        Revoke
      </Button>
      <ConfirmModal
        opened={confirming}
        onClose={() => setConfirming(false)}
        title={`Revoke ${apiKey.name}?`}
        confirmLabel="Revoke"
        pending={revoke.isPending}
        onConfirm={() =>
          revoke
            .mutateAsync({ organizationId: apiKey.organization_id, keyId: apiKey.api_key_id })
            .then(() => notifySuccess(`Revoked the API key ${apiKey.name}.`))
            .catch(() => setConfirming(false))
        }
      >
        {`Every call with ${apiKey.name} is refused from its next one on. This cannot be undone; the key stays listed as revoked.`}
      </ConfirmModal>
    </>
  );
}

export function apiKeyColumns(now: number, options: { organization?: boolean; revoke?: boolean } = {}): DataColumn<ApiKey>[] {
  return [
    { header: 'Name', rowHeader: true, breakAnywhere: true, cell: (k) => k.name },
    ...(options.organization ? [{ header: 'Organization', breakAnywhere: true, cell: (k: ApiKey) => k.organization_name }] : []),
    // Wide enough for its badges whatever the other cells hold (a long role list squeezed it to "ACT…").
    { header: 'State', unlabelled: true, nowrap: true, width: '7rem', cell: (k) => <ApiKeyBadges apiKey={k} now={now} /> },
    { header: 'Roles', cell: (k) => k.roles.map((r) => `${label(r.role)} (${label(r.scope)})`).join(', ') },
    { header: 'Created by', breakAnywhere: true, cell: (k) => `${k.created_by.name} (${k.created_by.email})` },
    { header: 'Expires', nowrap: true, cell: (k) => formatDateTime(k.date_expires) },
    { header: 'Last used', cell: (k) => (k.date_last_used ? `${formatDateTime(k.date_last_used)} from ${k.last_used_from ?? 'unknown'}` : 'Never') },
    ...(options.revoke
      ? [{ header: 'Actions', headerHidden: true, align: 'end' as const, cell: (k: ApiKey) => (k.date_revoked ? null : <RevokeButton apiKey={k} />) }]
      : []),
  ];
}

export default function ApiKeysPage() {
  const { organization } = useRouteOrganization();
  const organizationId = organization?.organization_id ?? '';
  const keys = useApiKeys(allowedIn(organization, 'apiKey.manage') ? organizationId : '');
  const create = useCreateApiKey();
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const subtitle = organization ? `Keys that let automation use the portal as a member of ${organization.organization_name}.` : '…';

  const submit = async (body: ApiKeyBody) => {
    const key = await create.mutateAsync({ organizationId, body });
    notifySuccess(`Created the API key ${key.name}.`);
    setCreating(false);
    setCreated(key);
  };

  return (
    <Page title="API keys" subtitle={subtitle}>
      {!organization ? (
        <Loading />
      ) : !allowedIn(organization, 'apiKey.manage') ? (
        <NoPermission title="You may not manage API keys here" doing="Managing API keys" action="apiKey.manage" />
      ) : (
        <Stack gap="md">
          <Group justify="space-between" align="flex-start" gap="sm">
            <Text size="sm" c="dimmed" maw={640}>
              A key acts with its own roles, never more than you may grant, until it expires or is revoked. Its secret is shown once.
            </Text>
            <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setCreating(true)}>
              Create API key
            </Button>
          </Group>
          <QueryList query={keys} noun="API keys" emptyText="No API keys yet.">
            {(items) => <DataTable label="API keys" columns={apiKeyColumns(Date.now(), { revoke: true })} rows={items} rowKey={(k) => k.api_key_id} minWidth={900} />}
          </QueryList>
          <CreateApiKeyModal opened={creating} organizationRole={organization.organization_role} onClose={() => setCreating(false)} onSubmit={submit} />
          <ApiKeySecretModal shown={created} onClose={() => setCreated(null)} />
        </Stack>
      )}
    </Page>
  );
}
