/**
 * "Create API key": a name, one or more roles each with its scope under the Roles tab's rules (ApiKeyRoleRows.tsx;
 * the server decides, common/policy.ts canGrant), read only, and an expiry of 30, 90 or 365 days or a date up to a
 * year ahead. The server's 400s show under their fields.
 */
import { Button, Group, Modal, SegmentedControl, Stack, Switch, Text, TextInput } from '@mantine/core';
import { z } from 'zod';
import { ROLES, SCOPES, type OrganizationRole } from '../../../common/enums';
import { KEY_EXPIRY_PRESETS, MAX_KEY_DAYS, type ApiKeyBody } from '../../../common/schemas/api-keys';
import { usePhone } from '../../components/usePhone';
import { applyServerError, useSchemaForm } from '../../lib/forms';
import { ApiKeyRoleRows, newRoleRow, type RoleRow } from './ApiKeyRoleRows';

const DAY_MS = 86_400_000;

interface Values {
  name: string;
  roles: RoleRow[];
  read_only: boolean;
  /** A preset's number of days, or 'date' for the date below. */
  expiry: string;
  date: string;
}

const valuesSchema = z.object({
  name: z.string().trim().min(1, 'Give the key a name, e.g. the pipeline that uses it').max(100),
  roles: z.array(z.object({ role: z.enum(ROLES, 'Choose a role'), scope: z.enum(SCOPES, 'Choose a scope'), key: z.string() }))
    .min(1, 'Give the key at least one role'),
  read_only: z.boolean(),
  expiry: z.string(),
  date: z.string(),
}).refine((v) => v.expiry !== 'date' || /^\d{4}-\d{2}-\d{2}$/.test(v.date), { path: ['date'], message: 'Choose the last day of the key' });

/** The instant the key stops: a preset counted from now, or the end of the chosen day (at most 365 days ahead). */
function expiresAt(values: Values, now: number): string {
  if (values.expiry !== 'date') return new Date(now + Number(values.expiry) * DAY_MS).toISOString();
  return new Date(Math.min(Date.parse(`${values.date}T23:59:59Z`), now + MAX_KEY_DAYS * DAY_MS)).toISOString();
}

function CreateForm({ organizationRole, onSubmit, onCancel }: { organizationRole: OrganizationRole; onSubmit: (body: ApiKeyBody) => Promise<unknown>; onCancel: () => void }) {
  const form = useSchemaForm<Values>(valuesSchema, { name: '', roles: [newRoleRow()], read_only: false, expiry: '90', date: '' });
  const submit = async (values: Values) => {
    try {
      await onSubmit({
        name: values.name.trim(), roles: values.roles.map((r) => ({ role: r.role!, scope: r.scope! })), read_only: values.read_only,
        date_expires: expiresAt(values, Date.now()),
      });
    } catch (error) {
      applyServerError(form, error, { date_expires: 'date' });
    }
  };
  const expiry = form.getValues().expiry;
  return (
    <form onSubmit={form.onSubmit(submit)} noValidate aria-label="Create API key">
      <Stack gap="md">
        <TextInput label="Name" description="What uses the key, e.g. ci-gateway-build." required data-autofocus maxLength={100} {...form.getInputProps('name')} />
        <ApiKeyRoleRows form={form} organizationRole={organizationRole} />
        <Switch label="Read only" description="The key reads what its roles read and changes nothing." {...form.getInputProps('read_only', { type: 'checkbox' })} />
        <Stack gap={4}>
          <Text size="sm" fw={500} id="api-key-expiry">
            Expires after
          </Text>
          <SegmentedControl
            aria-labelledby="api-key-expiry"
            data={[...KEY_EXPIRY_PRESETS.map((d) => ({ value: String(d), label: `${d} days` })), { value: 'date', label: 'A date' }]}
            {...form.getInputProps('expiry')}
          />
          {expiry === 'date' ? (
            <TextInput type="date" label="Last day" description={`At most ${MAX_KEY_DAYS} days ahead.`} required {...form.getInputProps('date')} />
          ) : null}
        </Stack>
        <Group justify="flex-end" gap="xs">
          <Button variant="default" onClick={onCancel} disabled={form.submitting}>
            Cancel
          </Button>
          <Button type="submit" loading={form.submitting}>
            Create API key
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

export function CreateApiKeyModal({ opened, organizationRole, onClose, onSubmit }: {
  opened: boolean; organizationRole: OrganizationRole; onClose: () => void; onSubmit: (body: ApiKeyBody) => Promise<unknown>;
}) {
  const phone = usePhone();
  return (
    <Modal opened={opened} onClose={onClose} title="Create API key" size="lg" fullScreen={phone} centered closeButtonProps={{ 'aria-label': 'Close' }}>
      {opened ? <CreateForm organizationRole={organizationRole} onSubmit={onSubmit} onCancel={onClose} /> : null}
    </Modal>
  );
}
