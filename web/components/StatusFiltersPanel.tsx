/**
 * The status list's further filters (issue 12 item 2), loaded when first opened so the first screen
 * stays light: status chips by group (a group's chips are alternatives, groups narrow each other),
 * "expiring within" 7, 30 or 90 days, and a range of days on the Until column. Each applies at once.
 */
import '@mantine/core/styles.layer.css';
import '@mantine/dates/styles.css';
import { useEffect, useState } from 'react';
import { Button, Chip, Group, SegmentedControl, Stack, Text } from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import { IconCalendar, IconX } from '@tabler/icons-react';
import dayjs from 'dayjs';
import {
  CERTIFICATE_STATUS_GROUPS, EXPIRING_PRESETS, LICENSE_STATUS_GROUPS, STATUS_FILTER_LABELS, type StatusGroup,
} from '../../common/status-filters';
import type { StatusListSearch } from './useListSearch';

const GROUPS: Record<StatusListSearch['kind'], readonly StatusGroup<string>[]> = {
  certificates: CERTIFICATE_STATUS_GROUPS,
  licenses: LICENSE_STATUS_GROUPS,
};

/** dd-MMM-yyyy, upper-cased, as every date of the portal (SPEC.md §9). */
const DISPLAY_FORMAT = 'DD-MMM-YYYY';
const formatPicked = ({ date }: { date: unknown }) =>
  typeof date === 'string' || date instanceof Date ? dayjs(date).format(DISPLAY_FORMAT).toUpperCase() : '';

/** The filters the panel sets, cleared at once. */
const PANEL_FILTERS = { status: '', expiringWithin: '', untilFrom: '', untilTo: '' };

export default function StatusFiltersPanel({ search }: { search: StatusListSearch }) {
  const { kind, filters, setFilters } = search;
  const groups = GROUPS[kind];
  const noun = kind === 'certificates' ? 'certificates' : 'licenses';
  const choose = (group: StatusGroup<string>, chosen: string[]) => {
    // The chip clicked, applied to the browser's URL, not to the last render's chips: a second click before the first
    // has rendered (a busy machine) must not undo it (useListSearch). The other chips stay; the URL keeps the API's order.
    const shown = filters.status.filter((s) => group.statuses.includes(s));
    const toggled = [...chosen.filter((s) => !shown.includes(s)), ...shown.filter((s) => !chosen.includes(s))];
    const next = new Set((new URLSearchParams(window.location.search).get('status') ?? '').split(',').filter(Boolean));
    for (const status of toggled) if (!next.delete(status)) next.add(status);
    setFilters({ status: groups.flatMap((g) => g.statuses).filter((s) => next.has(s)).join(',') });
  };
  // The range as picked so far: the first day alone is not applied yet. The URL may change under it (Back).
  const [range, setRange] = useState<[string | null, string | null]>([filters.untilFrom || null, filters.untilTo || null]);
  useEffect(() => setRange([filters.untilFrom || null, filters.untilTo || null]), [filters.untilFrom, filters.untilTo]);

  return (
    <Stack gap="sm">
      {groups.map((group) => (
        <Group key={group.label} gap="xs" align="center" role="group" aria-label={`${group.label} of the ${noun}`}>
          <Text size="sm" fw={600} w={72}>
            {group.label}
          </Text>
          <Chip.Group multiple value={filters.status.filter((s) => group.statuses.includes(s))} onChange={(chosen) => choose(group, chosen)}>
            <Group gap={6}>
              {group.statuses.map((status) => (
                <Chip key={status} value={status} size="sm" variant="outline">
                  {STATUS_FILTER_LABELS[status as keyof typeof STATUS_FILTER_LABELS]}
                </Chip>
              ))}
            </Group>
          </Chip.Group>
        </Group>
      ))}
      <Group gap="md" align="flex-end" wrap="wrap">
        <Stack gap={4}>
          <Text size="sm" fw={600} id={`${kind}-expiring-label`}>
            Expiring within
          </Text>
          <SegmentedControl
            size="sm"
            aria-labelledby={`${kind}-expiring-label`}
            data={[{ value: '', label: 'Any time' }, ...EXPIRING_PRESETS.map((days) => ({ value: String(days), label: `${days} days` }))]}
            value={filters.expiringWithin ? String(filters.expiringWithin) : ''}
            onChange={(value) => setFilters({ expiringWithin: value })}
          />
        </Stack>
        <DatePickerInput
          type="range"
          allowSingleDateInRange
          clearable
          clearButtonProps={{ 'aria-label': 'Clear the days of Until' }}
          label="Until between"
          valueFormat={DISPLAY_FORMAT}
          valueFormatter={({ date }) => (Array.isArray(date) ? date.map((d) => formatPicked({ date: d })).filter(Boolean).join(' – ') : '')}
          leftSection={<IconCalendar size={16} aria-hidden />}
          value={range}
          onChange={([from, to]) => {
            setRange([from, to]);
            // Applied once both days are picked, or when cleared.
            if ((from && to) || (!from && !to)) setFilters({ untilFrom: from ?? '', untilTo: to ?? '' });
          }}
          miw={260}
          popoverProps={{ withinPortal: true }}
        />
        <Button variant="subtle" leftSection={<IconX size={16} aria-hidden />} onClick={() => setFilters(PANEL_FILTERS)}>
          Clear these filters
        </Button>
      </Group>
    </Stack>
  );
}
