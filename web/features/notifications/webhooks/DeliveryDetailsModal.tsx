/** One delivery in a dialog: its ids and state, every attempt (when, status code, duration, error) and the payload sent. */
import { Code, DataList, Group, Modal, Stack, Text, Title } from '@mantine/core';
import { formatDateTime } from '../../../../common/dates';
import type { WebhookDelivery } from '../../../../common/schemas/webhooks';
import { DataTable, type DataColumn } from '../../../components/DataTable';
import { usePhone } from '../../../components/usePhone';
import type { EndpointRef } from '../api/keys';
import { eventLabel } from '../components/event-groups';
import { prettyPayload, type Attempt } from './delivery-text';
import { Fact } from '../../../components/Fact';
import { DeliveryStatusBadge } from './DeliveryStatusBadge';
import { RedeliverButton } from './RedeliverButton';

const ATTEMPT_COLUMNS: DataColumn<Attempt>[] = [
  { header: 'Attempted', nowrap: true, rowHeader: true, cell: (a) => formatDateTime(a.date_attempted) },
  { header: 'Status code', nowrap: true, cell: (a) => (a.status_code === null ? 'No answer' : a.status_code) },
  { header: 'Duration', nowrap: true, align: 'end', cell: (a) => `${a.duration_ms} ms` },
  { header: 'Error', breakAnywhere: true, cell: (a) => a.error ?? '-' },
];

export interface DeliveryDetailsModalProps {
  endpoint: EndpointRef;
  /** The delivery shown; null: closed. */
  delivery: WebhookDelivery | null;
  onClose: () => void;
}

export function DeliveryDetailsModal({ endpoint, delivery, onClose }: DeliveryDetailsModalProps) {
  const phone = usePhone();
  return (
    <Modal opened={!!delivery} onClose={onClose} title="Delivery" size="xl" fullScreen={phone} centered closeButtonProps={{ 'aria-label': 'Close' }}>
      {delivery ? (
        <Stack gap="md">
          <Group justify="space-between" align="flex-start" gap="sm">
            <DataList labelWidth="8rem" miw={0}>
              <Fact label="Event">{`${eventLabel(delivery.event_type)} (${delivery.event_type})`}</Fact>
              <Fact label="Status">
                <DeliveryStatusBadge status={delivery.status} />
              </Fact>
              <Fact label="webhook-id" mono>
                {delivery.delivery_id}
              </Fact>
              <Fact label="Created">{formatDateTime(delivery.date_created)}</Fact>
              {delivery.date_finished ? <Fact label="Finished">{formatDateTime(delivery.date_finished)}</Fact> : null}
              {delivery.status === 'pending' && delivery.next_attempt_at ? <Fact label="Next attempt">{formatDateTime(delivery.next_attempt_at)}</Fact> : null}
            </DataList>
            <RedeliverButton endpoint={endpoint} delivery={delivery} onDone={onClose} />
          </Group>
          <Title order={3} size="h5">
            Attempts
          </Title>
          {delivery.attempt_log.length > 0 ? (
            <DataTable label="Attempts" columns={ATTEMPT_COLUMNS} rows={delivery.attempt_log} rowKey={(a) => a.date_attempted} minWidth={560} dense />
          ) : (
            <Text size="sm">Not tried yet.</Text>
          )}
          <Title order={3} size="h5">
            Payload
          </Title>
          <Code block style={{ maxHeight: '20rem', overflow: 'auto', whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }} tabIndex={0} aria-label="Payload">
            {prettyPayload(delivery.payload)}
          </Code>
        </Stack>
      ) : null}
    </Modal>
  );
}
