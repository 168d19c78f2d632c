/**
 * The notices page (issue 13 item 4, "All notices" under the bell): the signed-in person's
 * notices of every organization, newest first, a page at a time with older/newer by cursor; only
 * the unread ones on request; each one opens its object (and so is read), or is marked read here;
 * "Mark all read". Below them, for those who settle approvals, how approval work is mailed to them.
 */
import { Group, Switch } from '@mantine/core';
import type { NoticePage } from '../../../common/schemas/notifications';
import { CursorPaging } from '../../components/CursorPaging';
import { Page } from '../../components/Page';
import { QueryList } from '../../components/QueryList';
import { useNotices } from './api/get-notices';
import { useMarkNoticesRead } from './api/mark-notices-read';
import { MarkAllReadButton } from './components/MarkAllReadButton';
import { NoticesTable } from './components/NoticesTable';
import { useNoticesCursor } from './useNoticesCursor';
import { ApprovalMailPanel } from './components/ApprovalMailPanel';
import { useAbility } from '../../lib/actor';

/** Notices per page: a feed read from the top, not a list to work through. */
const PAGE_SIZE = 20;

function subtitleOf(page: NoticePage | undefined): string {
  if (!page) return '…';
  return page.unread === 0 ? 'What the portal told you, newest first. All read.' : `What the portal told you, newest first. ${page.unread} unread.`;
}

export default function NoticesPage() {
  const cursor = useNoticesCursor();
  const notices = useNotices({ before: cursor.before, unreadOnly: cursor.unreadOnly, limit: PAGE_SIZE });
  const markRead = useMarkNoticesRead();
  const page = notices.data;
  const choosesApprovalMail = useAbility('approval.mail');

  return (
    <Page
      title="Notices"
      subtitle={subtitleOf(page)}
      actions={<MarkAllReadButton unread={page?.unread ?? 0} pending={markRead.isPending} onClick={() => markRead.mutate(undefined)} />}
    >
      <Group>
        <Switch label="Unread only" checked={cursor.unreadOnly} onChange={(event) => cursor.setUnreadOnly(event.currentTarget.checked)} />
      </Group>
      <QueryList
        query={{ data: page?.items, isPending: notices.isPending, isError: notices.isError }}
        noun="notices"
        emptyText={cursor.unreadOnly ? 'No unread notices.' : 'No notices yet: they come when something happens that your organization is told about.'}
      >
        {(items) => <NoticesTable notices={items} />}
      </QueryList>
      <CursorPaging noun="notices" hasNewer={cursor.hasNewer} nextBefore={page?.next_before ?? null} onNewer={cursor.newerPage} onOlder={cursor.older} />
      {choosesApprovalMail && <ApprovalMailPanel />}
    </Page>
  );
}
