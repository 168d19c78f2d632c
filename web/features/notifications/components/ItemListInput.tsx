/**
 * A short list of values edited one at a time (expiry thresholds, extra addresses): the values as
 * badges with a remove button each, and a box with an Add button (or Enter) for the next one,
 * checked by `parse` before it joins the list. `error` is the list's message from the form.
 */
import { useId, useRef, useState, type KeyboardEvent } from 'react';
import { Badge, Button, CloseButton, Group, Input, Stack, Text, TextInput } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';

export type Parsed<T> = { value: T } | { error: string };

export interface ItemListInputProps<T> {
  /** The list's name: "Expiry thresholds". */
  label: string;
  description?: string;
  items: T[];
  onChange: (items: T[]) => void;
  /** How a value reads in its badge: "30 days". */
  itemText: (item: T) => string;
  /** The box's label: "New threshold (days)". */
  inputLabel: string;
  /** The button's text: "Add threshold". */
  addLabel: string;
  placeholder?: string;
  inputMode?: 'numeric' | 'email';
  maxLength?: number;
  /** The box's text as a value, or why it is not one (a sentence). */
  parse: (text: string) => Parsed<T>;
  /** Orders the list after an addition (thresholds, longest first). */
  order?: (a: T, b: T) => number;
  /** At most this many values: the box is disabled once the list is full. */
  max: number;
  error?: string;
  /** The text when the list is empty. */
  emptyText: string;
}

export function ItemListInput<T>(props: ItemListInputProps<T>) {
  const { label, description, items, onChange, itemText, inputLabel, addLabel, placeholder, inputMode, maxLength, parse, order, max, error, emptyText } = props;
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [text, setText] = useState('');
  const [inputError, setInputError] = useState<string | null>(null);
  const full = items.length >= max;

  const add = () => {
    const parsed = parse(text.trim());
    if ('error' in parsed) {
      setInputError(parsed.error);
      return;
    }
    if (items.some((item) => itemText(item) === itemText(parsed.value))) {
      setInputError(`${itemText(parsed.value)} is in the list already.`);
      return;
    }
    const next = [...items, parsed.value];
    onChange(order ? next.sort(order) : next);
    setText('');
    setInputError(null);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    // Enter adds the value; it must not send the whole form.
    if (event.key !== 'Enter') return;
    event.preventDefault();
    add();
  };

  const remove = (index: number) => {
    onChange(items.filter((_, i) => i !== index));
    input.current?.focus();
  };

  return (
    <Stack gap={6} role="group" aria-labelledby={`${id}-label`}>
      <div>
        <Input.Label id={`${id}-label`} labelElement="div">
          {label}
        </Input.Label>
        {description ? <Input.Description>{description}</Input.Description> : null}
      </div>
      {items.length > 0 ? (
        <Group component="ul" gap={6} wrap="wrap" m={0} p={0} style={{ listStyle: 'none' }} aria-label={label}>
          {items.map((item, index) => (
            <li key={itemText(item)}>
              <Badge
                size="lg"
                variant="light"
                tt="none"
                className="break-anywhere"
                styles={{ root: { maxWidth: '100%', height: 'auto', minHeight: 'var(--badge-height)' }, label: { whiteSpace: 'normal' } }}
                rightSection={<CloseButton size="sm" aria-label={`Remove ${itemText(item)}`} onClick={() => remove(index)} />}
              >
                {itemText(item)}
              </Badge>
            </li>
          ))}
        </Group>
      ) : (
        <Text size="sm" c="dimmed">
          {emptyText}
        </Text>
      )}
      {error ? <Input.Error>{error}</Input.Error> : null}
      <Group gap="xs" align="flex-start" wrap="nowrap">
        <TextInput
          ref={input}
          label={inputLabel}
          // Lighter than the list's own label above it: the box is a part of the list.
          labelProps={{ fw: 400 }}
          placeholder={placeholder}
          inputMode={inputMode}
          maxLength={maxLength}
          value={text}
          disabled={full}
          description={full ? `The list holds at most ${max}.` : undefined}
          error={inputError}
          onChange={(event) => {
            setText(event.currentTarget.value);
            setInputError(null);
          }}
          onKeyDown={onKeyDown}
          style={{ flex: 1, maxWidth: '24rem' }}
        />
        <Button variant="default" leftSection={<IconPlus size={16} aria-hidden />} onClick={add} disabled={full || !text.trim()} mt={25}>
          {addLabel}
        </Button>
      </Group>
    </Stack>
  );
}
