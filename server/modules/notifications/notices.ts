/**
 * The bell (issue 13 item 4): each person reads and marks their own notices; nobody else's can
 * be named, so the query itself is the check (the member id comes from the verified token).
 * Marking read is the reader's own state, like a read mark in a mail client: not journaled.
 */
import type { NoticePage } from '../../../common/schemas/notifications';
import type { Queryable } from '../../db/database';

async function unreadCount(db: Queryable, memberId: string): Promise<number> {
  const row = await db.selectFrom('notices').select((eb) => eb.fn.countAll<number>().as('n'))
    .where('member_id', '=', memberId).where('date_read', 'is', null).executeTakeFirst();
  return Number(row?.n ?? 0);
}

export async function listNotices(
  db: Queryable, memberId: string, query: { before?: number; unread?: 'true' | 'false'; limit: number },
): Promise<NoticePage> {
  let q = db.selectFrom('notices')
    .select(['notice_id', 'organization_id', 'event_type', 'title', 'link', 'date_created', 'date_read'])
    .where('member_id', '=', memberId);
  if (query.before) q = q.where('notice_id', '<', query.before);
  if (query.unread === 'true') q = q.where('date_read', 'is', null);
  // Newest first, one more than asked: whether an older page exists.
  const rows = await q.orderBy('notice_id', 'desc').limit(query.limit + 1).execute();
  const items = rows.slice(0, query.limit).map((r) => ({ ...r, notice_id: Number(r.notice_id) }));
  return { items, unread: await unreadCount(db, memberId), next_before: rows.length > query.limit ? items[items.length - 1].notice_id : null };
}

/** Marks the given notices of this member read (all of them without ids); answers the unread count after. */
export async function markRead(db: Queryable, memberId: string, noticeIds: number[] | undefined, now: Date): Promise<number> {
  let q = db.updateTable('notices').set({ date_read: now.toISOString() }).where('member_id', '=', memberId).where('date_read', 'is', null);
  if (noticeIds) q = q.where('notice_id', 'in', noticeIds.length ? noticeIds : [-1]);
  await q.execute();
  return unreadCount(db, memberId);
}
