/**
 * The bell's popover: the latest notices (title, when, a dot while unread), in a box of its own
 * height that scrolls. Clicking one marks it read and opens its link; "Mark all read"; "All
 * notices" opens the notices page. A chunk of its own with Mantine's Popover, loaded when the
 * person reaches for the bell (NoticeBell).
 */
// All of Mantine's styles: the first screens load only their own (web/mantine-first-screens.css).
import '@mantine/core/styles.layer.css';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Anchor, Box, Divider, Group, Popover, Stack, Text } from '@mantine/core';
import type { NoticePage } from '../../../../common/schemas/notifications';
import { useMarkNoticesRead } from '../api/mark-notices-read';
import { NOTICES_PATH } from '../paths';
import { MarkAllReadButton } from './MarkAllReadButton';
import { NoticeLink } from './NoticeLink';

export interface NoticePopoverProps {
  /** The bell, the same button NoticeBell shows before this chunk has loaded. */
  button: ReactNode;
  opened: boolean;
  onChange: (opened: boolean) => void;
  /** The bell's latest notices; undefined until the first answer. */
  page: NoticePage | undefined;
  isError: boolean;
}

function NoticeList({ page, isError, onOpen }: Pick<NoticePopoverProps, 'page' | 'isError'> & { onOpen: () => void }) {
  if (!page) return <Text size="sm" p={6}>{isError ? 'The notices could not be loaded.' : 'Loading notices…'}</Text>;
  if (page.items.length === 0) return <Text size="sm" p={6}>No notices yet.</Text>;
  return (
    // The page scrolls under a long list no more: the list scrolls in its box (its links take the focus).
    <Box mah="min(26rem, 60vh)" style={{ overflowY: 'auto' }}>
      <Stack component="ul" gap={2} m={0} p={0} style={{ listStyle: 'none' }} aria-label="Latest notices">
        {page.items.map((notice) => (
          <li key={notice.notice_id}>
            <NoticeLink notice={notice} onOpen={onOpen} />
          </li>
        ))}
      </Stack>
    </Box>
  );
}

export default function NoticePopover({ button, opened, onChange, page, isError }: NoticePopoverProps) {
  const markRead = useMarkNoticesRead();
  const close = () => onChange(false);
  const unread = page?.unread ?? 0;
  return (
    <Popover opened={opened} onChange={onChange} position="bottom-end" width={360} shadow="md" trapFocus returnFocus withinPortal>
      <Popover.Target>{button}</Popover.Target>
      <Popover.Dropdown p="xs" maw="calc(100vw - 16px)">
        <Group justify="space-between" gap="xs" px={6} pb={6} wrap="nowrap">
          <Text fw={700} size="sm">
            Notifications
          </Text>
          <Text size="xs" c="dimmed">
            {unread === 0 ? 'All read' : `${unread} unread`}
          </Text>
        </Group>
        <Divider mb={4} />
        <NoticeList page={page} isError={isError} onOpen={close} />
        <Divider mt={4} />
        <Group justify="space-between" gap="xs" pt={6} px={6} wrap="nowrap">
          <Anchor component={Link} to={NOTICES_PATH} size="sm" onClick={close}>
            All notices
          </Anchor>
          <MarkAllReadButton unread={unread} pending={markRead.isPending} onClick={() => markRead.mutate(undefined)} size="compact-sm" variant="subtle" />
        </Group>
      </Popover.Dropdown>
    </Popover>
  );
}
