/** "Mark all read": of the bell's popover and the notices page; nothing to do without unread notices. */
import { Button, type ButtonProps } from '@mantine/core';
import { IconChecks } from '@tabler/icons-react';

export interface MarkAllReadButtonProps {
  unread: number;
  pending: boolean;
  onClick: () => void;
  size?: ButtonProps['size'];
  variant?: ButtonProps['variant'];
}

export function MarkAllReadButton({ unread, pending, onClick, size = 'sm', variant = 'default' }: MarkAllReadButtonProps) {
  return (
    <Button size={size} variant={variant} leftSection={<IconChecks size={16} aria-hidden />} disabled={unread === 0} loading={pending} onClick={onClick}>
      Mark all read
    </Button>
  );
}
