/**
 * An endpoint's delivery log: its deliveries newest first (event, created, state, attempts, the
 * latest attempt's status code and duration), filtered by state, paged by cursor (the API's
 * next_before: a delivery made meanwhile does not shift the older pages). Details opens a
 * delivery's attempts and payload; Redeliver sends it again.
 */
import { useState } from 'react';
import { Button, Group, SegmentedControl, Stack, Text } from '@mantine/core';
import { IconListDetails } from '@tabler/icons-react';
import { formatDateTime } from '../../../../common/dates';
import type { WebhookDelivery } from '../../../../common/schemas/webhooks';
import { CursorPaging } from '../../../components/CursorPaging';
import { DataTable, type DataColumn } from '../../../components/DataTable';
import { QueryList } from '../../../components/QueryList';
import { useWebhookDeliveries, type DeliveryStatus } from '../api/get-webhook-deliveries';
import type { EndpointRef } from '../api/keys';
import { eventLabel } from '../components/event-groups';
import { DeliveryDetailsModal } from './DeliveryDetailsModal';
import { lastOutcome } from './delivery-text';
import { DeliveryStatusBadge } from './DeliveryStatusBadge';
import { RedeliverButton } from './RedeliverButton';

const PAGE_SIZE = 25;

const FILTERS = [
  { value: 'all', label: 'All' },
  { value: 'pending', label: 'Pending' },
  { value: 'delivered', label: 'Delivered' },
  { value: 'failed', label: 'Failed' },
];

function columns(endpoint: EndpointRef, open: (delivery: WebhookDelivery) => void): DataColumn<WebhookDelivery>[] {
  return [
    {
      header: 'Event',
      rowHeader: true,
      cell: (d) => (
        <Stack gap={0}>
          <span>{eventLabel(d.event_type)}</span>
          <Text size="xs" c="dimmed" component="span">
            {d.event_type}
          </Text>
        </Stack>
      ),
    },
    { header: 'Created', nowrap: true, cell: (d) => formatDateTime(d.date_created) },
    { header: 'Status', cell: (d) => <DeliveryStatusBadge status={d.status} /> },
    { header: 'Attempts', nowrap: true, align: 'end', cell: (d) => d.attempts },
    { header: 'Last attempt', cell: lastOutcome },
    {
      header: 'Actions',
      headerHidden: true,
      align: 'end',
      cell: (d) => (
        <Group gap={6} justify="flex-end" wrap="nowrap">
          <Button
            variant="subtle"
            size="xs"
            leftSection={<IconListDetails size={14} aria-hidden />}
            onClick={() => open(d)}
            aria-label={`Details of ${eventLabel(d.event_type)}, ${formatDateTime(d.date_created)}`}
            aria-haspopup="dialog"
          >
            Details
          </Button>
          <RedeliverButton endpoint={endpoint} delivery={d} />
        </Group>
      ),
    },
  ];
}

export function DeliveryLog({ endpoint }: { endpoint: EndpointRef }) {
  const [status, setStatus] = useState<DeliveryStatus | undefined>(undefined);
  // The `before` of each page opened after the first: Newer goes back one.
  const [cursors, setCursors] = useState<number[]>([]);
  const [openId, setOpenId] = useState<string | null>(null);
  const before = cursors.at(-1);
  const deliveries = useWebhookDeliveries(endpoint, { status, before, limit: PAGE_SIZE });
  const page = deliveries.data;
  // The dialog shows the delivery as the latest answer has it (the log asks again while one is pending).
  const open = page?.items.find((d) => d.delivery_id === openId) ?? null;

  const filter = (value: string) => {
    setStatus(value === 'all' ? undefined : (value as DeliveryStatus));
    setCursors([]);
  };

  return (
    <Stack gap="md">
      <SegmentedControl aria-label="Deliveries to show" data={FILTERS} value={status ?? 'all'} onChange={filter} size="sm" style={{ alignSelf: 'flex-start' }} />
      <QueryList
        query={{ ...deliveries, data: page?.items }}
        noun="deliveries"
        emptyText={status ? `No ${status} deliveries.` : 'No deliveries yet: the endpoint receives the events it chose as they happen.'}
      >
        {(items) => (
          <DataTable label="Deliveries" columns={columns(endpoint, (d) => setOpenId(d.delivery_id))} rows={items} rowKey={(d) => d.delivery_id} minWidth={860} />
        )}
      </QueryList>
      <CursorPaging
        noun="deliveries"
        hasNewer={cursors.length > 0}
        nextBefore={page?.next_before ?? null}
        onNewer={() => setCursors(cursors.slice(0, -1))}
        onOlder={(next) => setCursors([...cursors, next])}
      />
      <DeliveryDetailsModal endpoint={endpoint} delivery={open} onClose={() => setOpenId(null)} />
    </Stack>
  );
}
