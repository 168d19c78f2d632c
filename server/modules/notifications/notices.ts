/**
 * The bell (issue 13 item 4): each person reads and marks their own notices; nobody else's can be named, so the
 * queries themselves are the check (the member id comes from the verified token).
 *
 * Two kinds (migration 0034): a notice to a person (its `member_id`), and an organization's notice to the members
 * holding one of its `audience` roles, one row however many they are. A person sees the latter when, at the
 * instant it was made, they were a member holding such a role (granted by then, not yet ended): whom the
 * dispatcher would have told one by one. Their read marks are their own (`notice_reads`), and "mark all read" moves
 * their `notice_read_through`, so the count never goes over what was read before. Marking read is the reader's own
 * state, like a read mark in a mail client: not journaled.
 */
import { sql, type Expression, type SqlBool } from 'kysely';
import { ROLES, type Role } from '../../../common/enums';
import type { Notice, NoticePage } from '../../../common/schemas/notifications';
import type { Db, Queryable } from '../../db/database';

/** The roles of an organization's notice as a number: a bit per role. */
export const audienceOf = (roles: readonly Role[]) => roles.reduce((mask, role) => mask | (1 << ROLES.indexOf(role)), 0);

/**
 * "Mark all read" settles an organization's notices made this long ago by moving the read-through, the newer ones
 * by marks: on PostgreSQL another instance's dispatcher may still commit a notice with a lower id than one already
 * seen, which a read-through at that id would count as read unseen.
 */
const SETTLED_MS = 60_000;

interface Reader {
  memberId: string;
  organizationId: string;
  /** The person's roles in their organization: each from when it counts (its grant, not before they joined) to its end. */
  grants: Array<{ role: Role; since: string; until: string | null }>;
  through: { notice_id: number; date_read: string } | null;
}

async function readerOf(db: Queryable, memberId: string): Promise<Reader | null> {
  const rows = await db.selectFrom('members as m')
    .leftJoin('role_assignments as r', (j) => j.onRef('r.member_id', '=', 'm.member_id').onRef('r.organization_id', '=', 'm.organization_id'))
    .leftJoin('notice_read_through as t', 't.member_id', 'm.member_id')
    .select(['m.organization_id', 'm.date_created', 'r.role', 'r.date_assigned', 'r.date_until', 't.notice_id', 't.date_read'])
    .where('m.member_id', '=', memberId)
    .execute();
  if (!rows.length) return null;
  const [first] = rows;
  return {
    memberId,
    organizationId: first.organization_id,
    grants: rows.filter((r) => r.role).map((r) => ({
      role: r.role!, since: r.date_assigned && r.date_assigned > r.date_created ? r.date_assigned : r.date_created, until: r.date_until,
    })),
    through: first.notice_id == null ? null : { notice_id: Number(first.notice_id), date_read: first.date_read! },
  };
}

/** The reader's organization's notices they may see (alias `n`), or none without a role there. */
function shownTo(reader: Reader): Expression<SqlBool> | null {
  if (!reader.grants.length) return null;
  const terms = reader.grants.map(({ role, since, until }) =>
    sql`((n.audience & ${audienceOf([role])}) <> 0 and n.date_created >= ${since}${until ? sql` and n.date_created < ${until}` : sql``})`);
  return sql<SqlBool>`(n.member_id is null and n.organization_id = ${reader.organizationId} and (${sql.join(terms, sql` or `)}))`;
}

/** Of the notices `shownTo` the reader, those not read (alias `n`). */
function unreadOf(reader: Reader): Expression<SqlBool> {
  return sql<SqlBool>`n.notice_id > ${reader.through?.notice_id ?? 0}
    and not exists (select 1 from notice_reads r where r.member_id = ${reader.memberId} and r.notice_id = n.notice_id)`;
}

/** Both kinds' unread notices in one statement (two scalar subqueries): one round trip. */
async function unreadCount(db: Queryable, reader: Reader): Promise<number> {
  const own = db.selectFrom('notices').select((eb) => eb.fn.countAll<number>().as('n'))
    .where('member_id', '=', reader.memberId).where('date_read', 'is', null);
  const shown = shownTo(reader);
  const shared = shown && db.selectFrom('notices as n').select((eb) => eb.fn.countAll<number>().as('n')).where(shown).where(unreadOf(reader));
  const row = await db.selectNoFrom([own.as('own'), (shared || sql<number>`0`).as('shared')]).executeTakeFirstOrThrow();
  return Number(row.own ?? 0) + Number(row.shared ?? 0);
}

const COLUMNS = ['n.notice_id', 'n.organization_id', 'n.event_type', 'n.title', 'n.link', 'n.date_created', 'n.date_read'] as const;

export async function listNotices(
  db: Queryable, memberId: string, query: { before?: number; unread?: 'true' | 'false'; limit: number },
): Promise<NoticePage> {
  const reader = await readerOf(db, memberId);
  if (!reader) return { items: [], unread: 0, next_before: null };
  // Newest first, one more than asked (whether an older page exists), of each kind; then the newest of both.
  let own = db.selectFrom('notices as n').select(COLUMNS).where('n.member_id', '=', memberId);
  if (query.before) own = own.where('n.notice_id', '<', query.before);
  if (query.unread === 'true') own = own.where('n.date_read', 'is', null);
  const rows: Notice[] = await own.orderBy('n.notice_id', 'desc').limit(query.limit + 1).execute();
  const shown = shownTo(reader);
  if (shown) {
    let shared = db.selectFrom('notices as n')
      .leftJoin('notice_reads as r', (j) => j.onRef('r.notice_id', '=', 'n.notice_id').on('r.member_id', '=', memberId))
      .select([...COLUMNS.filter((c) => c !== 'n.date_read'), 'r.date_read as marked'])
      .where(shown);
    if (query.before) shared = shared.where('n.notice_id', '<', query.before);
    if (query.unread === 'true') shared = shared.where(unreadOf(reader));
    for (const { marked, ...notice } of await shared.orderBy('n.notice_id', 'desc').limit(query.limit + 1).execute()) {
      const throughRead = reader.through && Number(notice.notice_id) <= reader.through.notice_id ? reader.through.date_read : null;
      rows.push({ ...notice, date_read: marked ?? throughRead });
    }
  }
  const newest = rows.map((r) => ({ ...r, notice_id: Number(r.notice_id) })).sort((a, b) => b.notice_id - a.notice_id).slice(0, query.limit + 1);
  const items = newest.slice(0, query.limit);
  return { items, unread: await unreadCount(db, reader), next_before: newest.length > query.limit ? items[items.length - 1].notice_id : null };
}

/** Marks the given notices of this member read (all of them without ids); answers the unread count after. */
export async function markRead(db: Db, memberId: string, noticeIds: number[] | undefined, now: Date): Promise<number> {
  const at = now.toISOString();
  return db.transaction().execute(async (tx) => {
    const reader = await readerOf(tx, memberId);
    if (!reader) return 0;
    const ids = noticeIds && (noticeIds.length ? noticeIds : [-1]);
    let own = tx.updateTable('notices').set({ date_read: at }).where('member_id', '=', memberId).where('date_read', 'is', null);
    if (ids) own = own.where('notice_id', 'in', ids);
    await own.execute();
    const shown = shownTo(reader);
    if (!shown) return unreadCount(tx, reader);
    if (!ids) {
      const settled = await tx.selectFrom('notices as n').select((eb) => eb.fn.max('n.notice_id').as('id'))
        .where('n.member_id', 'is', null).where('n.organization_id', '=', reader.organizationId)
        .where('n.date_created', '<=', new Date(now.getTime() - SETTLED_MS).toISOString()).executeTakeFirst();
      const through = Number(settled?.id ?? 0);
      if (through > (reader.through?.notice_id ?? 0)) {
        await tx.insertInto('notice_read_through').values({ member_id: memberId, notice_id: through, date_read: at })
          .onConflict((oc) => oc.column('member_id').doUpdateSet({ notice_id: through, date_read: at })).execute();
        await tx.deleteFrom('notice_reads').where('member_id', '=', memberId).where('notice_id', '<=', through).execute();
        reader.through = { notice_id: through, date_read: at };
      }
    }
    let unread = tx.selectFrom('notices as n').select([sql<string>`${memberId}`.as('member_id'), 'n.notice_id', sql<string>`${at}`.as('date_read')])
      .where(shown).where(unreadOf(reader));
    if (ids) unread = unread.where('n.notice_id', 'in', ids);
    await tx.insertInto('notice_reads').columns(['member_id', 'notice_id', 'date_read']).expression(unread)
      .onConflict((oc) => oc.doNothing()).execute();
    return unreadCount(tx, reader);
  });
}
