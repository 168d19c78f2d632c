/**
 * The notices page's table: each notice's title (a link to its object, which marks it read), when it
 * came, read or not, and "Mark read" for an unread one. DataTable: cards on phones.
 */
import { Link } from 'react-router';
import { Anchor, Badge, Button, Group, Text } from '@mantine/core';
import type { Notice } from '../../../../common/schemas/notifications';
import { DataTable, type DataColumn } from '../../../components/DataTable';
import { useMarkNoticesRead } from '../api/mark-notices-read';
import { NoticeTime } from './NoticeTime';
import { UnreadDot } from './UnreadDot';
import { useOpenNotice } from './useOpenNotice';
import { localizeTimesInText } from '../../../../common/dates';

function NoticeTitle({ notice }: { notice: Notice }) {
  const open = useOpenNotice(notice);
  const weight = notice.date_read ? 400 : 600;
  return (
    <Group gap={8} wrap="nowrap" align="flex-start">
      <UnreadDot unread={!notice.date_read} />
      {notice.link ? (
        <Anchor component={Link} to={notice.link} fw={weight} className="break-anywhere" onClick={open}>
          {localizeTimesInText(notice.title)}
        </Anchor>
      ) : (
        <Text fw={weight} className="break-anywhere">
          {localizeTimesInText(notice.title)}
        </Text>
      )}
    </Group>
  );
}

function MarkReadButton({ notice }: { notice: Notice }) {
  const markRead = useMarkNoticesRead();
  if (notice.date_read) return null;
  return (
    <Button size="compact-sm" variant="default" loading={markRead.isPending} onClick={() => markRead.mutate([notice.notice_id])} aria-label={`Mark read: ${notice.title}`}>
      Mark read
    </Button>
  );
}

const COLUMNS: DataColumn<Notice>[] = [
  { header: 'Notice', rowHeader: true, cell: (n) => <NoticeTitle notice={n} /> },
  { header: 'Received', nowrap: true, width: '9rem', cell: (n) => <NoticeTime date={n.date_created} /> },
  {
    header: 'Status',
    width: '6rem',
    cell: (n) =>
      n.date_read ? (
        <Badge variant="light" color="gray">
          Read
        </Badge>
      ) : (
        <Badge variant="light" color="blue">
          Unread
        </Badge>
      ),
  },
  { header: 'Actions', headerHidden: true, align: 'end', width: '8rem', cell: (n) => <MarkReadButton notice={n} /> },
];

export function NoticesTable({ notices }: { notices: Notice[] }) {
  return <DataTable label="Notices" columns={COLUMNS} rows={notices} rowKey={(n) => n.notice_id} minWidth={560} />;
}
