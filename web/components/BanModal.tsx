/**
 * Ban with a note (SPEC.md §4 "Members and organizations can be banned (with a note)"): the
 * note is optional, at most 1000 characters, and shown beside the Banned badge afterwards. It is
 * checked with the API's own schema of the ban's query (lib/forms.ts); `onBan` returns the call's
 * promise (mutateAsync), so a server 400 about the note shows under it, not as a toast.
 */
import { Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { banQuery } from '../../common/schemas/organization';
import { applyServerError, useSchemaForm } from '../lib/forms';

const BAN_NOTE_MAX = 1000;

export interface BanModalProps {
  opened: boolean;
  onClose: () => void;
  /** "Ban Contoso" */
  title: string;
  /** What the ban does, in a sentence. */
  description: string;
  pending?: boolean;
  /** The ban call (a mutation's `mutateAsync`): settles when it has, rejects with its ApiError. */
  onBan: (note: string) => Promise<unknown>;
}

export function BanModal({ opened, onClose, title, description, pending, onBan }: BanModalProps) {
  const form = useSchemaForm(banQuery, { note: '' });
  const close = () => {
    form.reset();
    onClose();
  };
  const submit = async ({ note }: { note: string }) => {
    try {
      await onBan(note.trim());
    } catch (error) {
      applyServerError(form, error);
    }
  };

  return (
    <Modal opened={opened} onClose={close} title={title} centered closeButtonProps={{ 'aria-label': 'Close' }}>
      <form onSubmit={form.onSubmit(submit)}>
        <Stack gap="md">
          <Text size="sm">{description}</Text>
          <Textarea
            label="Note"
            description="Why the ban? Shown with the Banned badge and written to the journal."
            {...form.getInputProps('note')}
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
