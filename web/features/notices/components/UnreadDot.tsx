/** The dot before an unread notice's title; screen readers hear "Unread" instead. */
import { Box, VisuallyHidden } from '@mantine/core';

export function UnreadDot({ unread }: { unread: boolean }) {
  return (
    <>
      <Box
        aria-hidden
        w={8}
        h={8}
        mt={6}
        style={{ flex: 'none', borderRadius: '50%', background: unread ? 'var(--mantine-color-blue-filled)' : 'transparent' }}
      />
      {unread ? <VisuallyHidden>Unread: </VisuallyHidden> : null}
    </>
  );
}
