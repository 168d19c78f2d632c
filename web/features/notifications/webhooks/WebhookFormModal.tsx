/**
 * Register or edit a webhook endpoint in a dialog: its URL, a description, its events and whether
 * it is active. Checked with the API's own schema (lib/forms.ts); the server's 400s (a private
 * address, a URL it refuses) show under their fields.
 */
import { Button, Group, Modal, Stack, Switch, Textarea, TextInput } from '@mantine/core';
import { z } from 'zod';
import type { EventType } from '../../../../common/events';
import { webhookBodySchema, type Webhook, type WebhookBody } from '../../../../common/schemas/webhooks';
import { MONOSPACE } from '../../../components/monospace';
import { usePhone } from '../../../components/usePhone';
import { applyServerError, useSchemaForm } from '../../../lib/forms';
import { EventChecklist } from '../components/EventChecklist';

interface Values {
  url: string;
  description: string;
  events: EventType[];
  active: boolean;
}

const valuesSchema = z.object(webhookBodySchema.in.shape);

/** A new endpoint starts with what people ask for first: approvals, expiries and waits. */
const NEW_ENDPOINT_EVENTS: EventType[] = ['certificate.approved', 'certificate.expiring', 'certificate.expired', 'license.approved', 'license.expiring', 'license.expired'];

const valuesOf = (endpoint: Webhook | null): Values => ({
  url: endpoint?.url ?? '',
  description: endpoint?.description ?? '',
  events: endpoint ? (endpoint.events as EventType[]) : NEW_ENDPOINT_EVENTS,
  active: endpoint?.active ?? true,
});

function WebhookForm({ endpoint, onSubmit, onCancel }: { endpoint: Webhook | null; onSubmit: (body: WebhookBody) => Promise<unknown>; onCancel: () => void }) {
  const form = useSchemaForm<Values>(valuesSchema, valuesOf(endpoint));
  const submit = async (values: Values) => {
    try {
      await onSubmit(webhookBodySchema.parse(values));
    } catch (error) {
      applyServerError(form, error);
    }
  };
  return (
    <form onSubmit={form.onSubmit(submit)} noValidate aria-label="Webhook endpoint">
      <Stack gap="md">
        <TextInput
          label="URL"
          description="Where the portal POSTs each event, signed by the Standard Webhooks scheme. Redirects are not followed."
          placeholder="https://hooks.example.com/portal"
          required
          data-autofocus
          inputMode="url"
          maxLength={2000}
          styles={{ input: MONOSPACE }}
          {...form.getInputProps('url')}
        />
        <Textarea label="Description" autosize minRows={2} maxLength={500} {...form.getInputProps('description')} />
        <EventChecklist
          label="Events"
          description="The events this endpoint receives."
          value={form.getValues().events}
          onChange={(events) => form.setFieldValue('events', events)}
          error={form.errors.events ? String(form.errors.events) : undefined}
        />
        <Switch label="Active" description="An inactive endpoint receives nothing until it is active again." {...form.getInputProps('active', { type: 'checkbox' })} />
        <Group justify="flex-end" gap="xs">
          <Button variant="default" onClick={onCancel} disabled={form.submitting}>
            Cancel
          </Button>
          <Button type="submit" loading={form.submitting}>
            {endpoint ? 'Save endpoint' : 'Add endpoint'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

export interface WebhookFormModalProps {
  opened: boolean;
  /** The endpoint to edit; null registers a new one. */
  endpoint: Webhook | null;
  onClose: () => void;
  onSubmit: (body: WebhookBody) => Promise<unknown>;
}

export function WebhookFormModal({ opened, endpoint, onClose, onSubmit }: WebhookFormModalProps) {
  const phone = usePhone();
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={endpoint ? 'Edit webhook endpoint' : 'Add webhook endpoint'}
      size="xl"
      fullScreen={phone}
      centered
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      {/* A fresh form each time the dialog opens. */}
      {opened ? <WebhookForm endpoint={endpoint} onSubmit={onSubmit} onCancel={onClose} /> : null}
    </Modal>
  );
}
