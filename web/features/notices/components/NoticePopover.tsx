/**
 * The bell's popover: the latest notices (title, when, a dot while unread). Clicking one marks it
 * read and opens its link; "Mark all read"; "All notices" opens the notices page. A chunk of its
 * own with Mantine's Popover, loaded when the person reaches for the bell (NoticeBell).
 */
// All of Mantine's styles: the first screens load only their own (web/mantine-first-screens.css).
import '@mantine/core/styles.layer.css';
import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { Anchor, Divider, Group, Popover, Stack, Text } from '@mantine/core';
import type { NoticePage } from '../../../../common/schemas/notifications';
import { useMarkNoticesRead } from '../api/mark-notices-read';
import { NOTICES_PATH } from '../paths';
import { MarkAllReadButton } from './MarkAllReadButton';
import { NoticeLink } from './NoticeLink';

export interface NoticePopoverProps {
  /** The bell, the same button NoticeBell shows before this chunk has loaded. */
  button: ReactNode;
  /** The bell's latest notices; undefined until the first answer. */
  page: NoticePage | undefined;
  isError: boolean;
}

function NoticeList({ page, isError, onOpen }: Pick<NoticePopoverProps, 'page' | 'isError'> & { onOpen: () => void }) {
  if (!page) return <Text size="sm">{isError ? 'The notices could not be loaded.' : 'Loading notices…'}</Text>;
  if (page.items.length === 0) return <Text size="sm">No notices yet.</Text>;
  return (
    <Stack component="ul" gap={2} m={0} p={0} style={{ listStyle: 'none' }} aria-label="Latest notices">
      {page.items.map((notice) => (
        <li key={notice.notice_id}>
          <NoticeLink notice={notice} onOpen={onOpen} />
        </li>
      ))}
    </Stack>
  );
}

export default function NoticePopover({ button, page, isError }: NoticePopoverProps) {
  const [opened, setOpened] = useState(true);
  const markRead = useMarkNoticesRead();
  const close = () => setOpened(false);
  const unread = page?.unread ?? 0;
  return (
    <Popover opened={opened} onChange={setOpened} position="bottom-end" width={360} shadow="md" trapFocus returnFocus withinPortal>
      <Popover.Target>{button}</Popover.Target>
      <Popover.Dropdown p="xs" maw="calc(100vw - 16px)">
        <Group justify="space-between" gap="xs" px={6} pb={6} wrap="nowrap">
          <Text fw={700} size="sm">
            Notifications{unread > 0 ? ` (${unread} unread)` : ''}
          </Text>
          <MarkAllReadButton unread={unread} pending={markRead.isPending} onClick={() => markRead.mutate(undefined)} size="compact-sm" variant="subtle" />
        </Group>
        <Divider mb={4} />
        <NoticeList page={page} isError={isError} onOpen={close} />
        <Divider mt={4} />
        <Group justify="center" pt={6}>
          <Anchor component={Link} to={NOTICES_PATH} size="sm" onClick={close}>
            All notices
          </Anchor>
        </Group>
      </Popover.Dropdown>
    </Popover>
  );
}
