/**
 * The filter row of the status lists (SPEC.md §2 certificates and licenses): a text box, three
 * toggle icons that hide expired, requested (not approved) and valid rows, and a Filter button.
 * The text applies on Filter or Enter; a toggle applies at once, together with the text typed
 * so far, so the list never shows a mix of applied and unapplied filters.
 *
 * Under it, "More filters" opens issue 12's status chips, "expiring within" and the range on Until
 * (StatusFiltersPanel, loaded when first opened); it is open while any of them is in force.
 */
import { lazy, Suspense, useState, type ReactNode } from 'react';
import { ActionIcon, Badge, Button, Group, Stack, VisuallyHidden } from '@mantine/core';
import { IconAdjustmentsHorizontal, IconCircleCheck, IconClockX, IconHourglass } from '@tabler/icons-react';
import { FilterForm } from './FilterForm';
import { HoverHint } from './HoverHint';
import type { StatusFlag, StatusListSearch } from './useListSearch';

const StatusFiltersPanel = lazy(() => import('./StatusFiltersPanel'));

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
  /** At the end of the filter row (the list's Export CSV). */
  actions?: ReactNode;
}

/** How many of the panel's filters are in force: each chip, the expiry preset, the range. */
function panelFiltersInForce({ filters }: StatusListSearch): number {
  return filters.status.length + (filters.expiringWithin ? 1 : 0) + (filters.untilFrom || filters.untilTo ? 1 : 0);
}

export function StatusListFilters({ label, formLabel, placeholder, search, actions }: StatusListFiltersProps) {
  const { filters, setFilters, toggle } = search;
  const inForce = panelFiltersInForce(search);
  const [opened, setOpened] = useState(inForce > 0);
  const panelId = `${search.kind}-more-filters`;
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
    <Stack gap="sm">
      <Group align="flex-end" gap="xs" wrap="wrap">
        <FilterForm
          label={label}
          formLabel={formLabel}
          placeholder={placeholder}
          maxLength={NAME_MAX_LENGTH}
          value={filters.name}
          onFilter={(name) => setFilters({ name })}
          controls={toggles}
        />
        <Button
          variant={opened ? 'light' : 'default'}
          leftSection={<IconAdjustmentsHorizontal size={16} aria-hidden />}
          rightSection={inForce ? (
            <Badge size="sm" circle>
              {inForce}
              <VisuallyHidden component="span"> in force</VisuallyHidden>
            </Badge>
          ) : null}
          aria-expanded={opened}
          aria-controls={panelId}
          onClick={() => setOpened((o) => !o)}
        >
          More filters
        </Button>
        {actions ? <Group ml="auto">{actions}</Group> : null}
      </Group>
      {opened ? (
        <div id={panelId}>
          <Suspense fallback={null}>
            <StatusFiltersPanel search={search} />
          </Suspense>
        </div>
      ) : null}
    </Stack>
  );
}
