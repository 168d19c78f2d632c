/**
 * The webhooks tab: the organization's endpoints (URL, events, active, the latest delivery's
 * state, deliveries that failed for good), Add endpoint, and Edit per endpoint. A registration
 * shows the new endpoint's signing secret once.
 */
import { useState } from 'react';
import { Badge, Button, Group, Stack, Text } from '@mantine/core';
import { IconPencil, IconPlus } from '@tabler/icons-react';
import type { Organization } from '../../../../common/schemas/organization';
import type { Webhook, WebhookBody } from '../../../../common/schemas/webhooks';
import { DataTable, type DataColumn } from '../../../components/DataTable';
import { AnchorLink } from '../../../components/Link';
import { MONOSPACE } from '../../../components/monospace';
import { QueryList } from '../../../components/QueryList';
import { notifySuccess } from '../../../lib/notifications';
import { useWebhooks } from '../api/get-webhooks';
import { useCreateWebhook, useSaveWebhook, type WebhookSecret } from '../api/webhook-mutations';
import { webhookPagePath } from '../paths';
import { DeliveryStatusBadge } from './DeliveryStatusBadge';
import { SecretModal } from './SecretModal';
import { WebhookFormModal } from './WebhookFormModal';

/** The form's dialog: closed, a new endpoint, or an endpoint to edit. */
type Editing = { endpoint: Webhook | null } | null;

export const ActiveBadge = ({ active }: { active: boolean }) => (
  <Badge color={active ? 'teal' : 'gray'} variant="light" size="sm">
    {active ? 'Active' : 'Inactive'}
  </Badge>
);

const eventCount = (endpoint: Webhook) => (endpoint.events.length === 1 ? '1 event' : `${endpoint.events.length} events`);

function columns(organizationId: string, edit: (endpoint: Webhook) => void): DataColumn<Webhook>[] {
  return [
    {
      header: 'URL',
      rowHeader: true,
      breakAnywhere: true,
      cell: (w) => (
        <Stack gap={2}>
          <AnchorLink to={webhookPagePath(organizationId, w.endpoint_id)} style={MONOSPACE} size="sm">
            {w.url}
          </AnchorLink>
          {w.description ? (
            <Text size="xs" c="dimmed">
              {w.description}
            </Text>
          ) : null}
        </Stack>
      ),
    },
    { header: 'Events', nowrap: true, cell: eventCount },
    { header: 'State', unlabelled: true, cell: (w) => <ActiveBadge active={w.active} /> },
    { header: 'Last delivery', cell: (w) => (w.last_status ? <DeliveryStatusBadge status={w.last_status} /> : <Text size="sm">None yet</Text>) },
    { header: 'Failed deliveries', nowrap: true, align: 'end', cell: (w) => w.failed_deliveries },
    {
      header: 'Actions',
      headerHidden: true,
      align: 'end',
      cell: (w) => (
        <Button variant="subtle" size="xs" leftSection={<IconPencil size={14} aria-hidden />} onClick={() => edit(w)} aria-label={`Edit ${w.url}`}>
          Edit
        </Button>
      ),
    },
  ];
}

export function WebhooksPanel({ organization }: { organization: Organization }) {
  const organizationId = organization.organization_id;
  const webhooks = useWebhooks(organizationId);
  const create = useCreateWebhook();
  const save = useSaveWebhook();
  const [editing, setEditing] = useState<Editing>(null);
  const [secret, setSecret] = useState<WebhookSecret | null>(null);

  const submit = async (body: WebhookBody) => {
    const endpoint = editing?.endpoint;
    if (endpoint) {
      const saved = await save.mutateAsync({ organizationId, endpointId: endpoint.endpoint_id, body });
      notifySuccess(`Saved the webhook endpoint ${saved.url}.`);
    } else {
      const created = await create.mutateAsync({ organizationId, body });
      notifySuccess(`Added the webhook endpoint ${created.endpoint.url}.`);
      setSecret(created);
    }
    setEditing(null);
  };

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-start" gap="sm">
        <Text size="sm" c="dimmed" maw={640}>
          Endpoints receive the events they choose as signed POSTs (Standard Webhooks), retried for about two days until they answer 2xx.
        </Text>
        <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setEditing({ endpoint: null })}>
          Add endpoint
        </Button>
      </Group>
      <QueryList query={webhooks} noun="webhook endpoints" emptyText="No webhook endpoints yet.">
        {(items) => (
          <DataTable label="Webhook endpoints" columns={columns(organizationId, (endpoint) => setEditing({ endpoint }))} rows={items} rowKey={(w) => w.endpoint_id} minWidth={720} />
        )}
      </QueryList>
      <WebhookFormModal opened={!!editing} endpoint={editing?.endpoint ?? null} onClose={() => setEditing(null)} onSubmit={submit} />
      <SecretModal shown={secret} onClose={() => setSecret(null)} />
    </Stack>
  );
}
