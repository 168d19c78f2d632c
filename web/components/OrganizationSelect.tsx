/**
 * A select of organizations that searches the server as the person types (GET
 * /api/organizations?filter&limit, debounced, one TanStack Query entry per text) instead of loading
 * every organization: the caller may read thousands. It shows the chosen organization's name
 * before any list has loaded, asks for the list only once the person reaches for the select, and
 * says how many more there are than it shows. Mantine's Select itself loads when reached for
 * (DeferredSelect), so the sidebar's switcher costs the first screen nothing.
 */
import { useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useDebouncedValue } from '@mantine/hooks';
import type { ComboboxItem, ComboboxProps, OptionsFilter } from '@mantine/core';
import type { Organization } from '../../common/schemas/organization';
import { organizationsQueryOptions } from '../api/get-organizations';
import { DeferredSelect } from './DeferredSelect';

/** The organizations one search shows. */
const ORGANIZATION_SEARCH_LIMIT = 50;
const MORE = '\u0000more';
const DEBOUNCE_MS = 250;

/** The chosen organization: its id and the name shown for it. */
export interface OrganizationChoice {
  organization_id: string;
  organization_name: string;
}

export interface OrganizationSelectProps {
  label: string;
  value: OrganizationChoice | null;
  onChange: (organization: Organization) => void;
  /** Which of the organizations found may be chosen (a parent: no customer, not itself). */
  accept?: (organization: Organization) => boolean;
  placeholder?: string;
  description?: string;
  error?: string;
  disabled?: boolean;
  readOnly?: boolean;
  comboboxProps?: ComboboxProps;
}

// The server filters (by name, case-insensitive); Mantine must not filter its answer again.
const serverFiltered: OptionsFilter<string> = ({ options }) => options;

export function OrganizationSelect({ label, value, onChange, accept, placeholder, description, error, disabled, readOnly, comboboxProps }: OrganizationSelectProps) {
  const [reached, setReached] = useState(false);
  const [search, setSearch] = useState('');
  // The box shows the chosen name while nothing else is typed: that is no search.
  const typed = search.trim() && search !== value?.organization_name ? search.trim() : '';
  const [filter] = useDebouncedValue(typed, DEBOUNCE_MS);
  const found = useQuery({ ...organizationsQueryOptions({ filter: filter || undefined, limit: ORGANIZATION_SEARCH_LIMIT }), enabled: reached && !disabled && !readOnly });

  const items = found.data?.items;
  const data = useMemo(() => {
    const options: ComboboxItem[] = (items ?? []).filter((o) => !accept || accept(o)).map((o) => ({ value: o.organization_id, label: o.organization_name }));
    // The chosen one stays listed (its name shows in the box) unless the person is searching.
    if (value && !typed && !options.some((o) => o.value === value.organization_id)) {
      options.unshift({ value: value.organization_id, label: value.organization_name });
    }
    const more = (found.data?.total ?? 0) - (items?.length ?? 0);
    if (more > 0) options.push({ value: MORE, label: `${more.toLocaleString('en-US')} more: type to narrow the list`, disabled: true });
    return options;
  }, [items, found.data?.total, accept, value, typed]);

  const choose = (id: string | null) => {
    const organization = items?.find((o) => o.organization_id === id);
    if (organization && id !== value?.organization_id) onChange(organization);
  };

  return (
    <DeferredSelect
      label={label}
      placeholder={placeholder}
      description={description}
      error={error}
      disabled={disabled}
      readOnly={readOnly}
      data={data}
      value={value?.organization_id ?? null}
      onChange={choose}
      searchable
      searchValue={search}
      onSearchChange={setSearch}
      filter={serverFiltered}
      allowDeselect={false}
      onFocus={() => setReached(true)}
      onDropdownOpen={() => setReached(true)}
      nothingFoundMessage={found.isFetching || (reached && typed !== filter) ? 'Searching…' : 'No organizations found.'}
      comboboxProps={comboboxProps}
    />
  );
}
