/**
 * The filter row of the status lists (SPEC.md §2 certificates and licenses): a text box, three
 * toggle icons that hide expired, requested (not approved) and valid rows, and a Filter button.
 * The text applies on Filter or Enter; a toggle applies at once, together with the text typed
 * so far, so the list never shows a mix of applied and unapplied filters.
 */
import { ActionIcon, Group } from '@mantine/core';
import { IconCircleCheck, IconClockX, IconHourglass } from '@tabler/icons-react';
import { FilterForm } from './FilterForm';
import { HoverHint } from './HoverHint';
import type { StatusFlag, StatusListSearch } from './useListSearch';

const TOGGLES: { flag: StatusFlag; label: string; Icon: typeof IconClockX }[] = [
  { flag: 'hideExpired', label: 'Hide expired', Icon: IconClockX },
  { flag: 'hideRequests', label: 'Hide requests', Icon: IconHourglass },
  { flag: 'hideValid', label: 'Hide valid', Icon: IconCircleCheck },
];

/** The API's limit of the name filter (common/schemas/lists.ts). */
const NAME_MAX_LENGTH = 500;

export interface StatusListFiltersProps {
  /** Label of the text box: "Filter by name", "Filter by DN". */
  label: string;
  /** Name of the search landmark, e.g. "Filter licenses". */
  formLabel: string;
  placeholder?: string;
  /** The list's filters in the URL, from useStatusListSearch. */
  search: StatusListSearch;
}

export function StatusListFilters({ label, formLabel, placeholder, search }: StatusListFiltersProps) {
  const { filters, setFilters, toggle } = search;
  const toggles = (text: string) => (
    <Group gap={6} wrap="nowrap" role="group" aria-label="Hide by status">
      {TOGGLES.map(({ flag, label: toggleLabel, Icon }) => (
        <HoverHint<HTMLButtonElement> key={flag} label={filters[flag] ? `${toggleLabel}: on` : toggleLabel}>
          {(hint) => (
            <ActionIcon
              {...hint}
              size={36}
              variant={filters[flag] ? 'filled' : 'default'}
              aria-label={toggleLabel}
              aria-pressed={filters[flag]}
              onClick={() => toggle(flag, text)}
            >
              <Icon size={18} aria-hidden />
            </ActionIcon>
          )}
        </HoverHint>
      ))}
    </Group>
  );

  return (
    <FilterForm
      label={label}
      formLabel={formLabel}
      placeholder={placeholder}
      maxLength={NAME_MAX_LENGTH}
      value={filters.name}
      onFilter={(name) => setFilters({ name })}
      controls={toggles}
    />
  );
}
