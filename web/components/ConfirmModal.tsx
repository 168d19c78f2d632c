/** A yes/no question before an action that cannot be undone (remove a member, reject a license...) or one done to many at once. */
import type { ReactNode } from 'react';
import { Button, Group, Modal, Stack, Text } from '@mantine/core';

export interface ConfirmModalProps {
  opened: boolean;
  onClose: () => void;
  /** "Remove Max Member?" */
  title: string;
  /** The confirming button: "Remove". */
  confirmLabel: string;
  pending?: boolean;
  onConfirm: () => void;
  /** What the action does, in a sentence or two. */
  children: ReactNode;
  /** Red for what takes something away (the default); the theme's colour for a confirmation of a plain action (Approve 3). */
  danger?: boolean;
}

export function ConfirmModal({ opened, onClose, title, confirmLabel, pending, onConfirm, children, danger = true }: ConfirmModalProps) {
  return (
    <Modal opened={opened} onClose={onClose} title={title} centered closeButtonProps={{ 'aria-label': 'Close' }}>
      <Stack gap="lg">
        <Text size="sm" className="break-anywhere">
          {children}
        </Text>
        <Group justify="flex-end" gap="xs">
          <Button variant="default" onClick={onClose} disabled={pending}>
            Cancel
          </Button>
          <Button color={danger ? 'red.9' : undefined} onClick={onConfirm} loading={pending} data-autofocus>
            {confirmLabel}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
