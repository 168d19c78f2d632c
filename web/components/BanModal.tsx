/**
 * Ban with a note (SPEC.md §4 "Members and organizations can be banned (with a note)"): the
 * note is optional, at most 1000 characters, and shown beside the Banned badge afterwards.
 */
import { useState, type FormEvent } from 'react';
import { Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core';

const BAN_NOTE_MAX = 1000;

export interface BanModalProps {
  opened: boolean;
  onClose: () => void;
  /** "Ban Contoso" */
  title: string;
  /** What the ban does, in a sentence. */
  description: string;
  pending?: boolean;
  onBan: (note: string) => void;
}

export function BanModal({ opened, onClose, title, description, pending, onBan }: BanModalProps) {
  const [note, setNote] = useState('');
  const close = () => {
    setNote('');
    onClose();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onBan(note.trim());
  };

  return (
    <Modal opened={opened} onClose={close} title={title} centered closeButtonProps={{ 'aria-label': 'Close' }}>
      <form onSubmit={submit}>
        <Stack gap="md">
          <Text size="sm">{description}</Text>
          <Textarea
            label="Note"
            description="Why the ban? Shown with the Banned badge and written to the journal."
            value={note}
            onChange={(event) => setNote(event.currentTarget.value)}
            maxLength={BAN_NOTE_MAX}
            autosize
            minRows={3}
            data-autofocus
          />
          <Group justify="flex-end" gap="xs">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" color="red.9" loading={pending}>
              Ban
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
