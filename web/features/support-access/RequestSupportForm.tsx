/**
 * Asking for vendor support access (issue 33 item 2): the organization (fixed on its page, chosen in the admin area),
 * the role (read-only MEMBER by default, at most what the asker's role allows), the hours (1–72) and the reason;
 * for a supervisor, break glass (at most 4 hours, without consent). The server's 400s show under their fields.
 */
import { Alert, Button, Group, NumberInput, Select, Stack, Switch, Textarea } from '@mantine/core';
import { z } from 'zod';
import { label, type Role } from '../../../common/enums';
import { BREAK_GLASS_MAX_HOURS, SUPPORT_MAX_HOURS } from '../../../common/policy';
import type { SupportRequestBody } from '../../../common/schemas/support-access';
import { applyServerError, useSchemaForm } from '../../lib/forms';

interface Values {
  organization: string | null;
  role: Role;
  hours: number | string;
  reason: string;
  break_glass: boolean;
}

const schema = z.object({
  organization: z.string('Choose the organization').min(1, 'Choose the organization'),
  role: z.string(),
  hours: z.number('Give the hours, 1–72').int('Whole hours').min(1, 'At least 1 hour').max(SUPPORT_MAX_HOURS, `At most ${SUPPORT_MAX_HOURS} hours`),
  reason: z.string().trim().min(1, 'Say why you need access, e.g. the incident number'),
  break_glass: z.boolean(),
}).refine((v) => !v.break_glass || Number(v.hours) <= BREAK_GLASS_MAX_HOURS, { path: ['hours'], message: `A break glass lasts at most ${BREAK_GLASS_MAX_HOURS} hours` });

export function RequestSupportForm({ organizations, fixedOrganization, roles, breakGlass, onSubmit }: {
  organizations?: Array<{ organization_id: string; organization_name: string }>;
  fixedOrganization?: string;
  roles: Role[];
  breakGlass: boolean;
  onSubmit: (organizationId: string, body: SupportRequestBody) => Promise<unknown>;
}) {
  const form = useSchemaForm<Values>(schema, { organization: fixedOrganization ?? null, role: 'MEMBER', hours: 4, reason: '', break_glass: false });
  const submit = async (values: Values) => {
    try {
      await onSubmit(values.organization!, { role: values.role, hours: Number(values.hours), reason: values.reason.trim(), break_glass: values.break_glass });
      form.reset();
    } catch (error) {
      applyServerError(form, error);
    }
  };
  const glass = form.getValues().break_glass;
  return (
    <form onSubmit={form.onSubmit(submit)} noValidate aria-label="Request support access">
      <Stack gap="md">
        {organizations ? (
          <Select
            label="Organization" placeholder="Choose the organization" required searchable
            data={organizations.map((o) => ({ value: o.organization_id, label: o.organization_name }))}
            comboboxProps={{ withinPortal: true }} {...form.getInputProps('organization')}
          />
        ) : null}
        <Group align="flex-start" gap="xs" grow>
          <Select
            label="Role" required allowDeselect={false}
            description="Member reads only; ask for more only when the work needs it."
            data={roles.map((r) => ({ value: r, label: label(r) }))} comboboxProps={{ withinPortal: true }} {...form.getInputProps('role')}
          />
          <NumberInput label="Hours" required min={1} max={glass ? BREAK_GLASS_MAX_HOURS : SUPPORT_MAX_HOURS} allowDecimal={false}
            description={glass ? `At most ${BREAK_GLASS_MAX_HOURS}` : `1–${SUPPORT_MAX_HOURS}`} {...form.getInputProps('hours')} />
        </Group>
        <Textarea label="Reason" required autosize minRows={2} maxLength={1000} description="The customer reads it when deciding, and it stays in both journals." {...form.getInputProps('reason')} />
        {breakGlass ? (
          <Switch
            color="red" label="Break glass: take access now, without the customer's consent"
            description={`Emergencies only: at most ${BREAK_GLASS_MAX_HOURS} hours, the customer's administrators are told at once by every channel.`}
            {...form.getInputProps('break_glass', { type: 'checkbox' })}
          />
        ) : null}
        {glass ? <Alert color="red" title="Break glass">The access starts at once and is marked as a break glass in every journal, notice and banner.</Alert> : null}
        <Group justify="flex-end">
          <Button type="submit" color={glass ? 'red' : undefined} loading={form.submitting}>
            {glass ? 'Break glass' : 'Request access'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
