/**
 * The organization's notification rules (issue 13 item 2): which events make notices and mails,
 * the expiry thresholds, the approval waiting days, who receives them (members by role, extra
 * addresses) and whether mail is sent. Checked with the API's own schema (lib/forms.ts); the
 * server's 400s show under the fields they name.
 */
import { Alert, Button, Group, NumberInput, Stack, Switch } from '@mantine/core';
import { IconMailOff } from '@tabler/icons-react';
import { z } from 'zod';
import { DEFAULT_NOTIFICATION_SETTINGS, type EventType, type NotificationSettings } from '../../../../common/events';
import type { Role } from '../../../../common/enums';
import { notificationSettingsBodySchema, type NotificationSettingsBody, type NotificationSettingsView } from '../../../../common/schemas/notifications';
import { applyServerError, numberInput, useSchemaForm, type SchemaForm } from '../../../lib/forms';
import { EventChecklist } from './EventChecklist';
import { ItemListInput, type Parsed } from './ItemListInput';
import { RoleChecklist } from './RoleChecklist';

interface Values {
  events: EventType[];
  expiry_days: number[];
  /** '' while the box is empty. */
  waiting_days: number | string;
  recipient_roles: Role[];
  extra_addresses: string[];
  email: boolean;
}

const fields = notificationSettingsBodySchema.in.shape;
const valuesSchema = z.object({ ...fields, waiting_days: numberInput(fields.waiting_days, { required: true }) });

const NO_MAIL_SERVER = 'This portal has no mail server configured: notices appear in the portal only';

const valuesOf = (settings: NotificationSettings): Values => ({
  events: [...settings.events],
  expiry_days: [...settings.expiry_days].sort((a, b) => b - a),
  waiting_days: settings.waiting_days,
  recipient_roles: [...settings.recipient_roles],
  extra_addresses: [...settings.extra_addresses],
  email: settings.email,
});

function parseDays(text: string): Parsed<number> {
  const days = Number(text);
  const checked = fields.expiry_days.element.safeParse(days);
  if (!text || !checked.success) return { error: 'A whole number of days from 1 to 365.' };
  return { value: checked.data };
}

function parseAddress(text: string): Parsed<string> {
  const checked = fields.extra_addresses.element.safeParse(text);
  return checked.success ? { value: checked.data } : { error: 'An email address, such as ops@example.com.' };
}

/**
 * The message of a list field: the form's own, or the first of its items' (`extra_addresses.2`,
 * as the schema or the server names it), prefixed with that item.
 */
function listError(form: SchemaForm<Values>, field: 'expiry_days' | 'extra_addresses', itemText: (index: number) => string): string | undefined {
  const own = form.errors[field];
  if (own) return String(own);
  const prefix = `${field}.`;
  const item = Object.keys(form.errors).find((path) => path.startsWith(prefix));
  return item ? `${itemText(Number(item.slice(prefix.length)))}: ${String(form.errors[item])}` : undefined;
}

export interface RulesFormProps {
  settings: NotificationSettingsView;
  /** The organization is the operator: DEVOPS is a role here. */
  operator: boolean;
  onSubmit: (settings: NotificationSettingsBody) => Promise<unknown>;
}

export function RulesForm({ settings, operator, onSubmit }: RulesFormProps) {
  const form = useSchemaForm<Values>(valuesSchema, valuesOf(settings));
  const values = form.getValues();

  const submit = async (submitted: Values) => {
    try {
      await onSubmit(notificationSettingsBodySchema.parse({ ...submitted, waiting_days: Number(submitted.waiting_days) }));
    } catch (error) {
      applyServerError(form, error);
    }
  };

  const days = (n: number) => (n === 1 ? '1 day' : `${n} days`);

  return (
    <form onSubmit={form.onSubmit(submit)} noValidate aria-label="Notification rules">
      <Stack gap="lg" maw={860}>
        <EventChecklist
          label="Events"
          description="What makes a notice in the portal and a mail for the recipients below. Webhooks choose their own events."
          value={values.events}
          onChange={(events) => form.setFieldValue('events', events)}
          error={form.errors.events ? String(form.errors.events) : undefined}
        />
        <ItemListInput
          label="Expiry thresholds"
          description="Days before a certificate or license runs out at which “expires soon” is told, once each."
          items={values.expiry_days}
          onChange={(items) => form.setFieldValue('expiry_days', items)}
          itemText={days}
          inputLabel="New threshold (days)"
          addLabel="Add threshold"
          placeholder="e.g. 60"
          inputMode="numeric"
          maxLength={3}
          parse={parseDays}
          order={(a, b) => b - a}
          max={8}
          error={listError(form, 'expiry_days', (i) => days(values.expiry_days[i]))}
          emptyText="No thresholds."
        />
        <NumberInput
          label="Approval waiting days"
          description="A certificate or license that has waited this many days for approval is told about."
          required
          {...form.getInputProps('waiting_days')}
          min={1}
          max={90}
          allowDecimal={false}
          allowNegative={false}
          styles={{ wrapper: { maxWidth: '15rem' } }}
        />
        <RoleChecklist
          label="Recipient roles"
          description="Members of this organization holding one of these roles receive the notices (and mails)."
          value={values.recipient_roles}
          onChange={(roles) => form.setFieldValue('recipient_roles', roles)}
          operator={operator}
          error={form.errors.recipient_roles ? String(form.errors.recipient_roles) : undefined}
        />
        <ItemListInput
          label="Extra addresses"
          description="Mailed besides the members, e.g. a team's shared mailbox; only at the organization's trusted domains."
          items={values.extra_addresses}
          onChange={(items) => form.setFieldValue('extra_addresses', items)}
          itemText={(address) => address}
          inputLabel="New address"
          addLabel="Add address"
          placeholder="ops@example.com"
          inputMode="email"
          maxLength={320}
          parse={parseAddress}
          max={20}
          error={listError(form, 'extra_addresses', (i) => values.extra_addresses[i] ?? `Address ${i + 1}`)}
          emptyText="No extra addresses."
        />
        <Stack gap="xs">
          <Switch label="Send email" description="Mail the recipients as well as showing notices in the portal." {...form.getInputProps('email', { type: 'checkbox' })} />
          {settings.email_configured ? null : (
            <Alert color="gray" variant="light" icon={<IconMailOff size={20} aria-hidden />}>
              {NO_MAIL_SERVER}.
            </Alert>
          )}
        </Stack>
        <Group gap="sm">
          <Button type="submit" loading={form.submitting}>
            Save rules
          </Button>
          <Button variant="default" onClick={() => form.setValues(valuesOf(DEFAULT_NOTIFICATION_SETTINGS))}>
            Fill in the defaults
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
