/**
 * Newer and older pages of a list the API pages by cursor (next_before: an item made meanwhile does
 * not shift the older pages): notices, webhook deliveries. Nothing when there is one page only.
 */
import { Button, Group } from '@mantine/core';
import { IconChevronLeft, IconChevronRight } from '@tabler/icons-react';

export interface CursorPagingProps {
  /** Plural, lower case: "notices" gives "Newer notices", "Older notices", "Pages of notices". */
  noun: string;
  hasNewer: boolean;
  /** The API's next_before: null on the oldest page. */
  nextBefore: number | null;
  onNewer: () => void;
  onOlder: (before: number) => void;
}

export function CursorPaging({ noun, hasNewer, nextBefore, onNewer, onOlder }: CursorPagingProps) {
  if (!hasNewer && nextBefore === null) return null;
  return (
    <Group component="nav" aria-label={`Pages of ${noun}`} justify="space-between">
      <Button variant="default" size="sm" leftSection={<IconChevronLeft size={16} aria-hidden />} disabled={!hasNewer} onClick={onNewer}>
        Newer {noun}
      </Button>
      <Button
        variant="default"
        size="sm"
        rightSection={<IconChevronRight size={16} aria-hidden />}
        disabled={nextBefore === null}
        onClick={() => nextBefore !== null && onOlder(nextBefore)}
      >
        Older {noun}
      </Button>
    </Group>
  );
}
