/**
 * One notice as a link to its object (the bell's popover, the notices page): the unread dot, the
 * title and when it came. Opening it marks it read; an unread notice without a link (an event of
 * no organization) is a button that only marks it read.
 */
import { Link } from 'react-router';
import { Box, Group, Stack, Text, UnstyledButton } from '@mantine/core';
import type { Notice } from '../../../../common/schemas/notifications';
import { NoticeTime } from './NoticeTime';
import { UnreadDot } from './UnreadDot';
import { useOpenNotice } from './useOpenNotice';
import classes from './NoticeLink.module.css';
import { localizeTimesInText } from '../../../../common/dates';

export interface NoticeLinkProps {
  notice: Notice;
  /** After the click (the popover closes). */
  onOpen?: () => void;
}

export function NoticeLink({ notice, onOpen }: NoticeLinkProps) {
  const unread = !notice.date_read;
  const open = useOpenNotice(notice, onOpen);
  const content = (
    <Group gap={8} wrap="nowrap" align="flex-start">
      <UnreadDot unread={unread} />
      <Stack gap={0} miw={0}>
        <Text size="sm" fw={unread ? 600 : 400} className="break-anywhere">
          {localizeTimesInText(notice.title)}
        </Text>
        <NoticeTime date={notice.date_created} />
      </Stack>
    </Group>
  );
  if (notice.link) {
    return (
      <UnstyledButton component={Link} to={notice.link} className={classes.item} onClick={open}>
        {content}
      </UnstyledButton>
    );
  }
  if (!unread) return <Box className={classes.item}>{content}</Box>;
  return (
    <UnstyledButton className={classes.item} onClick={open}>
      {content}
    </UnstyledButton>
  );
}
