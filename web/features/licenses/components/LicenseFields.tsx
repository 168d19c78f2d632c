/**
 * The editable license fields: License name, Scope, Valid from (a date picker showing
 * 05-MAR-2024), Days valid and Note (SPEC.md §2, §5). The request form and the details page
 * before approval use the same inputs, bound to the page's form (lib/forms.ts).
 */
// The date picker's stylesheet comes with the screens that use it, not with the app's first load.
import '@mantine/dates/styles.css';
import { NumberInput, Select, SimpleGrid, Textarea, TextInput } from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import { IconCalendar } from '@tabler/icons-react';
import dayjs from 'dayjs';
import { LICENSE_SCOPES, label } from '../../../../common/enums';
import { formatLastValidDay } from '../../../../common/dates';
import type { SchemaForm } from '../../../lib/forms';
import type { License } from '../../../../common/schemas/license';
import type { LicenseDraft } from './license-draft';
import { daysValidSchema, draftValidUntil } from './license-draft';
import { sentence } from '../../../lib/form-errors';

const SCOPE_OPTIONS = LICENSE_SCOPES.map((scope) => ({ value: scope, label: label(scope) }));

/** dd-MMM-yyyy with the month upper-cased, as every date of the portal (SPEC.md §9). */
const DISPLAY_FORMAT = 'DD-MMM-YYYY';
const formatPicked = ({ date }: { date: unknown }) =>
  typeof date === 'string' || date instanceof Date ? dayjs(date).format(DISPLAY_FORMAT).toUpperCase() : '';

const PICKER_LABELS = {
  previousMonth: 'Previous month', nextMonth: 'Next month', previousYear: 'Previous year', nextYear: 'Next year',
  previousDecade: 'Previous decade', nextDecade: 'Next decade', monthLevelControl: 'Choose a month', yearLevelControl: 'Choose a year',
};

export interface LicenseFieldsProps {
  form: SchemaForm<LicenseDraft>;
  disabled?: boolean;
  /** The license the fields correct before approval (its zone counts while its day stays); none for a request. */
  license?: License;
}

export function LicenseFields({ form, disabled, license }: LicenseFieldsProps) {
  const until = draftValidUntil(form.values, license);
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md" verticalSpacing="md">
      <TextInput
        label="License name"
        required
        maxLength={200}
        {...form.getInputProps('license_name')}
        disabled={disabled}
      />
      <Select
        label="Scope"
        data={SCOPE_OPTIONS}
        {...form.getInputProps('license_scope')}
        allowDeselect={false}
        disabled={disabled}
      />
      <DatePickerInput
        label="Valid from"
        valueFormat={DISPLAY_FORMAT}
        valueFormatter={formatPicked}
        leftSection={<IconCalendar size={16} aria-hidden />}
        {...form.getInputProps('valid_from')}
        // The draft keeps '' for no day; the picker wants null.
        value={form.values.valid_from || null}
        onChange={(value) => form.setFieldValue('valid_from', value ?? '')}
        disabled={disabled}
        minDate="2000-01-01"
        maxDate="9000-12-31"
        // Named controls and popup, no dimmed days of the next and previous month (2.39:1): axe-clean open (issue 34).
        popoverProps={{ withinPortal: true, attributes: { dropdown: { 'aria-label': 'Choose the day the license is valid from' } } }}
        ariaLabels={PICKER_LABELS}
        hideOutsideDates
        // Weekends in the theme's red read at 3.3:1 on white; a license's day has nothing to do with weekends.
        weekendDays={[]}
      />
      <NumberInput
        label="Days valid"
        description={until ? `Last valid day: ${formatLastValidDay(until)}` : undefined}
        min={1}
        max={3650}
        // What is typed stays as typed (0, -5, 1000000, 1.5): the form's schema refuses it with a message under
        // the field as soon as it is typed, never a silent rewrite to another number of days (issue 34 defect 4).
        clampBehavior="none"
        {...form.getInputProps('days_valid')}
        disabled={disabled}
        onChange={(value) => {
          const days = typeof value === 'number' ? value : value === '' ? '' : Number(value);
          form.setFieldValue('days_valid', days);
          // Checked while typing, not on blur (lib/forms.ts), with the form's own rule for the new value: a wrong number
          // says so at once; an emptied box, or a lone "-" on its way to a number, waits for the submit.
          const problem = typeof days === 'number' && !Number.isNaN(days) ? daysValidSchema.safeParse(days).error?.issues[0]?.message : undefined;
          // After the change's own clearing of the message (queued): setFieldError would skip the same text as before.
          if (problem) form.setErrors((current) => ({ ...current, days_valid: sentence(problem) }));
        }}
      />
      <Textarea
        label="Note"
        description="Optional"
        autosize
        minRows={3}
        maxRows={10}
        maxLength={2000}
        {...form.getInputProps('note')}
        disabled={disabled}
        style={{ gridColumn: '1 / -1' }}
      />
    </SimpleGrid>
  );
}
