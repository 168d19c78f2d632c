/** The access review's one query: assignments that count at `now`, with their member and organization. */
import type { Queryable } from '../../db/database';
import { roleCounts } from '../../db/role-end';
import type { AccessReviewExportQuery, AccessReviewRow } from '../../../common/schemas/access-review';

/** Rows of these organizations ('all': every one) in a stable order: organization, member, role. */
export async function reviewRows(
  db: Queryable, organizations: 'all' | string[], query: AccessReviewExportQuery, now: Date, page: { offset: number; limit: number },
): Promise<AccessReviewRow[]> {
  if (organizations !== 'all' && organizations.length === 0) return [];
  let q = db
    .selectFrom('role_assignments as r')
    .innerJoin('members as m', 'm.member_id', 'r.member_id')
    .innerJoin('organizations as o', 'o.organization_id', 'r.organization_id')
    .select([
      'r.organization_id', 'o.organization_name', 'r.member_id', 'm.member_email', 'm.name', 'r.role', 'r.scope',
      'r.date_assigned as since', 'r.date_until as until', 'r.assigned_by as granted_by',
    ])
    .where(roleCounts('r', now));
  if (organizations !== 'all') q = q.where('r.organization_id', 'in', organizations);
  if (query.kind === 'STANDING') q = q.where('r.date_until', 'is', null);
  if (query.kind === 'TIME_BOXED') q = q.where('r.date_until', 'is not', null);
  const rows = await q
    .orderBy('o.organization_name').orderBy('r.organization_id').orderBy('m.member_email').orderBy('r.role')
    .offset(page.offset).limit(page.limit)
    .execute();
  return rows.map((r) => ({ ...r, kind: r.until ? 'TIME_BOXED' : 'STANDING' }));
}

/** How many rows the review holds under the filter. */
export async function countRows(db: Queryable, organizations: 'all' | string[], query: AccessReviewExportQuery, now: Date): Promise<number> {
  if (organizations !== 'all' && organizations.length === 0) return 0;
  let q = db.selectFrom('role_assignments as r').select((e) => e.fn.countAll<string | number>().as('total')).where(roleCounts('r', now));
  if (organizations !== 'all') q = q.where('r.organization_id', 'in', organizations);
  if (query.kind === 'STANDING') q = q.where('r.date_until', 'is', null);
  if (query.kind === 'TIME_BOXED') q = q.where('r.date_until', 'is not', null);
  const row = await q.executeTakeFirst();
  return Number(row?.total ?? 0);
}
