/**
 * A filter box that narrows the list while typing, for short lists loaded whole (organizations,
 * resources). Paged lists filter on submit instead (FilterForm).
 */
import { TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';

export interface LiveFilterInputProps {
  label: string;
  placeholder: string;
  value: string;
  onChange: (text: string) => void;
}

export function LiveFilterInput({ label, placeholder, value, onChange }: LiveFilterInputProps) {
  return (
    <TextInput
      label={label}
      placeholder={placeholder}
      leftSection={<IconSearch size={16} aria-hidden />}
      value={value}
      onChange={(event) => onChange(event.currentTarget.value)}
      maw={360}
    />
  );
}
