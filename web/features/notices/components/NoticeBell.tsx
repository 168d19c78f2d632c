/**
 * The bell in the header (issue 13 item 4): an icon button named "Notifications, N unread" with
 * the count over it, asking for the person's latest notices every minute and when the window gets
 * the focus back (api/get-notices). Its popover (NoticePopover: Mantine's Popover and floating-ui)
 * is a chunk of its own, loaded when the person reaches for the bell, as the header's phone menu is.
 */
import { lazy, Suspense, useState } from 'react';
import { ActionIcon } from '@mantine/core';
import { IconBell } from '@tabler/icons-react';
import { useLatestNotices } from '../api/get-notices';
import classes from './NoticeBell.module.css';

const loadNoticePopover = () => import('./NoticePopover');
const NoticePopover = lazy(loadNoticePopover);

/** The badge's text: the count up to 99. */
const shortCount = (unread: number) => (unread > 99 ? '99+' : String(unread));

export function NoticeBell() {
  const latest = useLatestNotices();
  // Loaded once wanted; open or not is kept here, since a controlled Popover leaves its target's clicks to us.
  const [wanted, setWanted] = useState(false);
  const [opened, setOpened] = useState(false);
  const unread = latest.data?.unread ?? 0;
  const button = (
    <ActionIcon
      variant="subtle"
      color="gray"
      size="lg"
      className={classes.bell}
      aria-label={`Notifications, ${unread} unread`}
      aria-haspopup="dialog"
      aria-expanded={opened}
      onPointerEnter={() => void loadNoticePopover()}
      onFocus={() => void loadNoticePopover()}
      onClick={() => {
        setWanted(true);
        setOpened((open) => !open);
      }}
    >
      <IconBell size={20} aria-hidden />
      {unread > 0 ? (
        <span className={classes.count} aria-hidden>
          {shortCount(unread)}
        </span>
      ) : null}
    </ActionIcon>
  );
  if (!wanted) return button;
  return (
    <Suspense fallback={button}>
      <NoticePopover button={button} opened={opened} onChange={setOpened} page={latest.data} isError={latest.isError} />
    </Suspense>
  );
}
