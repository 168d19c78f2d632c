/**
 * The editable license fields: License name, Scope, Valid from (a date picker showing
 * 05-MAR-2024), Days valid and Note (SPEC.md §2, §5). The request form and the details page
 * before approval use the same inputs.
 */
// The date picker's stylesheet comes with the screens that use it, not with the app's first load.
import '@mantine/dates/styles.css';
import { NumberInput, Select, SimpleGrid, Textarea, TextInput } from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import { IconCalendar } from '@tabler/icons-react';
import dayjs from 'dayjs';
import { LICENSE_SCOPES, label, type LicenseScope } from '../../../../common/enums';
import { formatLastValidDay } from '../../../../common/dates';
import type { DraftErrors, LicenseDraft } from './license-draft';
import { draftValidUntil } from './license-draft';

const SCOPE_OPTIONS = LICENSE_SCOPES.map((scope) => ({ value: scope, label: label(scope) }));

/** dd-MMM-yyyy with the month upper-cased, as every date of the portal (SPEC.md §9). */
const DISPLAY_FORMAT = 'DD-MMM-YYYY';
const formatPicked = ({ date }: { date: unknown }) =>
  typeof date === 'string' || date instanceof Date ? dayjs(date).format(DISPLAY_FORMAT).toUpperCase() : '';

export interface LicenseFieldsProps {
  draft: LicenseDraft;
  errors?: DraftErrors;
  disabled?: boolean;
  onChange: (patch: Partial<LicenseDraft>) => void;
}

export function LicenseFields({ draft, errors = {}, disabled, onChange }: LicenseFieldsProps) {
  const until = draftValidUntil(draft);
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md" verticalSpacing="md">
      <TextInput
        label="License name"
        required
        maxLength={200}
        value={draft.license_name}
        error={errors.license_name}
        disabled={disabled}
        onChange={(event) => onChange({ license_name: event.currentTarget.value })}
      />
      <Select
        label="Scope"
        data={SCOPE_OPTIONS}
        value={draft.license_scope}
        allowDeselect={false}
        error={errors.license_scope}
        disabled={disabled}
        onChange={(value) => value && onChange({ license_scope: value as LicenseScope })}
      />
      <DatePickerInput
        label="Valid from"
        valueFormat={DISPLAY_FORMAT}
        valueFormatter={formatPicked}
        leftSection={<IconCalendar size={16} aria-hidden />}
        value={draft.valid_from || null}
        error={errors.valid_from}
        disabled={disabled}
        minDate="2000-01-01"
        maxDate="9000-12-31"
        onChange={(value) => onChange({ valid_from: value ?? '' })}
        popoverProps={{ withinPortal: true }}
      />
      <NumberInput
        label="Days valid"
        description={until ? `Last valid day: ${formatLastValidDay(until)}` : undefined}
        min={1}
        max={3650}
        allowDecimal={false}
        allowNegative={false}
        clampBehavior="strict"
        value={draft.days_valid}
        error={errors.days_valid}
        disabled={disabled}
        onChange={(value) => onChange({ days_valid: typeof value === 'number' ? value : value === '' ? '' : Number(value) })}
      />
      <Textarea
        label="Note"
        description="Optional"
        autosize
        minRows={3}
        maxRows={10}
        maxLength={2000}
        value={draft.note}
        error={errors.note}
        disabled={disabled}
        onChange={(event) => onChange({ note: event.currentTarget.value })}
        style={{ gridColumn: '1 / -1' }}
      />
    </SimpleGrid>
  );
}
