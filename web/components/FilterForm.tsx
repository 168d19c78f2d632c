/**
 * A list's text filter: a text box and a Filter button (SPEC.md §2). The list filters when the
 * form is submitted (button or Enter), not on every keystroke, as the screens describe. Further
 * controls (the status toggles) sit between the box and the button and get the text typed so far.
 */
import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { Button, Group, TextInput } from '@mantine/core';
import { IconFilter, IconSearch } from '@tabler/icons-react';

export interface FilterFormProps {
  label: string;
  /** Name of the search landmark, e.g. "Filter licenses". */
  formLabel?: string;
  placeholder?: string;
  /** The API's limit of the text: 200 for a list's `filter` (common/schemas). */
  maxLength?: number;
  /** The filter in force (from the URL): the box shows it again after a reload or Back. */
  value: string;
  onFilter: (text: string) => void;
  controls?: (text: string) => ReactNode;
}

// Alone, box and button stay on one line; with controls the row wraps on narrow screens.
const PLAIN = { group: { wrap: 'nowrap', maw: 520 }, input: { style: { flex: 1, minWidth: 0 } } } as const;
const WITH_CONTROLS = { group: { wrap: 'wrap' }, input: { w: 320, maw: '100%' } } as const;

export function FilterForm({ label, formLabel, placeholder, maxLength = 200, value, onFilter, controls }: FilterFormProps) {
  const [text, setText] = useState(value);
  // The URL may change under the form (back button, a link): show what is applied.
  useEffect(() => setText(value), [value]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    onFilter(text.trim());
  };

  const layout = controls ? WITH_CONTROLS : PLAIN;
  return (
    <form onSubmit={submit} role="search" aria-label={formLabel}>
      <Group align="flex-end" gap="xs" {...layout.group}>
        <TextInput
          label={label}
          placeholder={placeholder}
          leftSection={<IconSearch size={16} aria-hidden />}
          value={text}
          onChange={(event) => setText(event.currentTarget.value)}
          maxLength={maxLength}
          {...layout.input}
        />
        {controls?.(text.trim())}
        <Button type="submit" variant="light" leftSection={<IconFilter size={16} aria-hidden />}>
          Filter
        </Button>
      </Group>
    </form>
  );
}
