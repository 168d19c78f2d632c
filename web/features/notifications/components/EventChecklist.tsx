/**
 * The events as checkboxes in their groups (Certificates, Licenses, Members and organizations,
 * Tokens), each group a fieldset named by its title; the whole list is a group named by `label`,
 * its message below it.
 */
import { useId } from 'react';
import { Checkbox, Fieldset, Input, SimpleGrid, Stack } from '@mantine/core';
import { EVENT_LABELS, type EventType } from '../../../../common/events';
import { EVENT_GROUPS } from './event-groups';

export interface EventChecklistProps {
  /** The list's name: "Events". */
  label: string;
  description?: string;
  value: EventType[];
  onChange: (events: EventType[]) => void;
  error?: string;
}

export function EventChecklist({ label, description, value, onChange, error }: EventChecklistProps) {
  const id = useId();
  const chosen = new Set(value);
  const toggle = (event: EventType, on: boolean) => onChange(on ? [...value, event] : value.filter((e) => e !== event));
  const describedBy = [description && `${id}-description`, error && `${id}-error`].filter(Boolean).join(' ') || undefined;
  return (
    <Stack gap={6} role="group" aria-labelledby={`${id}-label`} aria-describedby={describedBy}>
      <div>
        <Input.Label id={`${id}-label`} labelElement="div">
          {label}
        </Input.Label>
        {description ? <Input.Description id={`${id}-description`}>{description}</Input.Description> : null}
      </div>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        {EVENT_GROUPS.map((group) => (
          <Fieldset key={group.title} legend={group.title} variant="filled" p="sm">
            <Stack gap={6}>
              {group.events.map((event) => (
                <Checkbox key={event} label={EVENT_LABELS[event]} checked={chosen.has(event)} onChange={(e) => toggle(event, e.currentTarget.checked)} />
              ))}
            </Stack>
          </Fieldset>
        ))}
      </SimpleGrid>
      {error ? <Input.Error id={`${id}-error`}>{error}</Input.Error> : null}
    </Stack>
  );
}
