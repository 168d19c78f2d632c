/** Newer and older pages of the notices, by cursor: the API tells whether an older page exists (next_before). */
import { Button, Group } from '@mantine/core';
import { IconChevronLeft, IconChevronRight } from '@tabler/icons-react';

export interface NoticesPagingProps {
  hasNewer: boolean;
  nextBefore: number | null;
  onNewer: () => void;
  onOlder: (before: number) => void;
}

export function NoticesPaging({ hasNewer, nextBefore, onNewer, onOlder }: NoticesPagingProps) {
  if (!hasNewer && nextBefore === null) return null;
  return (
    <Group component="nav" aria-label="Pages of notices" justify="space-between">
      <Button variant="default" size="sm" leftSection={<IconChevronLeft size={16} aria-hidden />} disabled={!hasNewer} onClick={onNewer}>
        Newer notices
      </Button>
      <Button
        variant="default"
        size="sm"
        rightSection={<IconChevronRight size={16} aria-hidden />}
        disabled={nextBefore === null}
        onClick={() => nextBefore !== null && onOlder(nextBefore)}
      >
        Older notices
      </Button>
    </Group>
  );
}
