/**
 * The access review's one query: assignments that count at `now`, with their member and organization, and the vendor
 * support accesses that run at `now` (issue 33 item 2) as rows of kind SUPPORT.
 */
import { sql } from 'kysely';
import type { Queryable } from '../../db/database';
import { roleCounts } from '../../db/role-end';
import type { AccessReviewExportQuery, AccessReviewRow } from '../../../common/schemas/access-review';
import type { Scope } from '../../../common/enums';

function roles(db: Queryable, organizations: 'all' | string[], query: AccessReviewExportQuery, now: Date) {
  let q = db
    .selectFrom('role_assignments as r')
    .innerJoin('members as m', 'm.member_id', 'r.member_id')
    .innerJoin('organizations as o', 'o.organization_id', 'r.organization_id')
    .select([
      'r.organization_id', 'o.organization_name', 'r.member_id', 'm.member_email', 'm.name', 'r.role', 'r.scope',
      'r.date_assigned as since', 'r.date_until as until', 'r.assigned_by as granted_by',
      sql<number | null>`cast(null as integer)`.as('support_request'), sql<number>`0`.as('break_glass'),
    ])
    .where(roleCounts('r', now));
  if (organizations !== 'all') q = q.where('r.organization_id', 'in', organizations);
  if (query.kind === 'STANDING') q = q.where('r.date_until', 'is', null);
  if (query.kind === 'TIME_BOXED') q = q.where('r.date_until', 'is not', null);
  return q;
}

function support(db: Queryable, organizations: 'all' | string[], now: Date) {
  let q = db
    .selectFrom('support_requests as s')
    .innerJoin('organizations as o', 'o.organization_id', 's.organization_id')
    .select([
      's.organization_id', 'o.organization_name', 's.member_id', 's.requester_email as member_email', 's.requester_name as name', 's.role',
      sql<Scope>`'ORGANIZATION'`.as('scope'), 's.date_decided as since', 's.date_until as until', 's.decided_by as granted_by',
      's.request_id as support_request', 's.break_glass',
    ])
    .where('s.state', '=', 'APPROVED').where('s.date_until', '>', now.toISOString());
  if (organizations !== 'all') q = q.where('s.organization_id', 'in', organizations);
  return q;
}

/** The rows under the filter: roles, support accesses, or both. */
function both(db: Queryable, organizations: 'all' | string[], query: AccessReviewExportQuery, now: Date) {
  // Only the support accesses: the same compound with no role rows, so every filter reads one shape.
  if (query.kind === 'SUPPORT') return roles(db, organizations, query, now).where(sql<boolean>`1 = 0`).unionAll(support(db, organizations, now));
  if (query.kind) return roles(db, organizations, query, now);
  return roles(db, organizations, query, now).unionAll(support(db, organizations, now));
}

/** Rows of these organizations ('all': every one) in a stable order: organization, member, role. */
export async function reviewRows(
  db: Queryable, organizations: 'all' | string[], query: AccessReviewExportQuery, now: Date, page: { offset: number; limit: number },
): Promise<AccessReviewRow[]> {
  if (organizations !== 'all' && organizations.length === 0) return [];
  // Ordered outside the compound: SQLite orders a UNION only by the names of its first select's output.
  const rows = await db.selectFrom(both(db, organizations, query, now).as('rows')).selectAll()
    .orderBy('organization_name').orderBy('organization_id').orderBy('member_email').orderBy('role').orderBy('support_request')
    .offset(page.offset).limit(page.limit)
    .execute();
  return rows.map((r) => {
    const supportRequest = r.support_request === null || r.support_request === undefined ? null : Number(r.support_request);
    return {
      ...r, support_request: supportRequest, break_glass: Number(r.break_glass) === 1,
      kind: supportRequest !== null ? 'SUPPORT' : r.until ? 'TIME_BOXED' : 'STANDING',
    };
  });
}

/** How many rows the review holds under the filter. */
export async function countRows(db: Queryable, organizations: 'all' | string[], query: AccessReviewExportQuery, now: Date): Promise<number> {
  if (organizations !== 'all' && organizations.length === 0) return 0;
  const row = await db.selectFrom(both(db, organizations, query, now).as('rows')).select((e) => e.fn.countAll<string | number>().as('total')).executeTakeFirst();
  return Number(row?.total ?? 0);
}
