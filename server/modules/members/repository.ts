/** Member and role-assignment queries. The organization is part of every lookup (tenancy in the query). */
import type { Insertable, Updateable } from 'kysely';
import type { Queryable } from '../../db/database';
import type { MembersTable, RoleAssignmentsTable } from '../../db/schema';
import type { Role, Scope } from '../../../common/enums';
import type { MemberListQuery, MemberSort } from '../../../common/schemas/member';
import { sortColumn } from '../../../common/sorts';
import { inOrder, pageWithTotal, type Order } from '../../db/sort';
import { containsIgnoringCase } from '../../db/text-filter';

const ADMINISTRATIVE: Role[] = ['ADMINISTRATOR', 'SUPERVISOR'];

function selectMembers(db: Queryable) {
  return db
    .selectFrom('members as m')
    .innerJoin('organizations as o', 'o.organization_id', 'm.organization_id')
    .selectAll('m')
    .select(['o.organization_name', 'o.organization_role', 'o.date_organization_banned']);
}

export type MemberRowWithOrganization = NonNullable<Awaited<ReturnType<typeof findMember>>>;

/**
 * The columns of each sort (docs/decisions.md "Sorting"), each ending with the email (unique): by name
 * (the usual order) from members_list (organization, name, email) and members_name; by email from
 * members_sort_email (migration 0017) and the email's unique index; by organization, the organizations
 * by their unique name and each one's members from members_list.
 */
const SORT_COLUMNS = {
  name: ['m.name', 'm.member_email'],
  member_email: ['m.member_email'],
  organization_name: ['o.organization_name', 'm.name', 'm.member_email'],
} as const;

function listOrder(sort: MemberSort = 'name', oneOrganization: boolean): Order {
  const { column, descending } = sortColumn(sort);
  return { columns: SORT_COLUMNS[column].filter((c) => !(oneOrganization && c === 'o.organization_name')), descending };
}

/** One page of members of the given organizations ('all' for operator-wide lists), by name then email unless sorted otherwise. */
export async function listMembers(db: Queryable, organizations: 'all' | string[], query: MemberListQuery) {
  if (organizations !== 'all' && organizations.length === 0) return { rows: [], total: 0 };
  let q = selectMembers(db);
  if (organizations !== 'all') q = q.where('m.organization_id', 'in', organizations);
  const filter = query.filter?.trim();
  // member_email is stored lower-cased; the filter helper lowers the text, so both sides compare alike.
  if (filter) q = q.where((eb) => eb.or([containsIgnoringCase(db, 'm.name', filter), containsIgnoringCase(db, 'm.member_email', filter)]));
  const count = q.clearSelect().select((eb) => eb.fn.countAll<number>().as('n'));
  return pageWithTotal(inOrder(q, listOrder(query.sort, organizations !== 'all' && organizations.length === 1)), count, query.offset, query.limit);
}

export async function findMember(db: Queryable, organizationId: string, memberId: string) {
  return selectMembers(db).where('m.member_id', '=', memberId).where('m.organization_id', '=', organizationId).executeTakeFirst();
}

export async function findMemberByEmail(db: Queryable, email: string) {
  return selectMembers(db).where('m.member_email', '=', email).executeTakeFirst();
}

/** Organizations trusting the domain, oldest first (sign-in admits only when exactly one does). */
export async function organizationsTrusting(db: Queryable, domain: string) {
  return db
    .selectFrom('organization_domains as d')
    .innerJoin('organizations as o', 'o.organization_id', 'd.organization_id')
    .select(['o.organization_id', 'o.organization_name', 'o.date_organization_banned'])
    .where('d.domain', '=', domain)
    .orderBy('o.date_created')
    .execute();
}

/** Role assignments of these members in the given organizations ('all': everywhere), in one query. */
export async function assignmentsOf(db: Queryable, memberIds: string[], organizations: 'all' | string[]) {
  if (memberIds.length === 0 || (organizations !== 'all' && organizations.length === 0)) return [];
  let q = db
    .selectFrom('role_assignments as r')
    .innerJoin('organizations as o', 'o.organization_id', 'r.organization_id')
    .select(['r.member_id', 'r.organization_id', 'o.organization_name', 'r.role', 'r.scope', 'r.date_until as until'])
    .where('r.member_id', 'in', memberIds);
  if (organizations !== 'all') q = q.where('r.organization_id', 'in', organizations);
  return q.orderBy('o.organization_name').orderBy('r.role').execute();
}

export async function updateMember(db: Queryable, memberId: string, changes: Updateable<MembersTable>) {
  if (Object.keys(changes).length === 0) return;
  await db.updateTable('members').set(changes).where('member_id', '=', memberId).execute();
}

/** Removes the member; role assignments go with them, certificates keep no owner (foreign keys). */
export async function deleteMember(db: Queryable, memberId: string) {
  await db.deleteFrom('members').where('member_id', '=', memberId).execute();
}

export async function findAssignments(db: Queryable, memberId: string, role: Role) {
  return db.selectFrom('role_assignments').selectAll().where('member_id', '=', memberId).where('role', '=', role).execute();
}

/** A member with only the fields every member has; the rest are filled in by the person later. */
export async function insertMember(db: Queryable, row: { member_id: string; organization_id: string; member_email: string; name: string; date_created: string }) {
  await db.insertInto('members').values({
    ...row, given_name: null, family_name: null, job_role: null, mobile_phone: null, office_phone: null, address: null, ban_note: null, date_member_banned: null,
  }).execute();
}

export async function insertAssignment(db: Queryable, row: Insertable<RoleAssignmentsTable>) {
  await db.insertInto('role_assignments').values(row).execute();
}

/** A new scope or end of an assignment the member holds (its grant stays as it was recorded). */
export async function updateAssignment(db: Queryable, memberId: string, organizationId: string, role: Role, changes: { scope: Scope; date_until: string | null }) {
  await db
    .updateTable('role_assignments')
    .set(changes)
    .where('member_id', '=', memberId)
    .where('organization_id', '=', organizationId)
    .where('role', '=', role)
    .execute();
}

export async function deleteAssignment(db: Queryable, memberId: string, organizationId: string, role: Role) {
  await db
    .deleteFrom('role_assignments')
    .where('member_id', '=', memberId)
    .where('organization_id', '=', organizationId)
    .where('role', '=', role)
    .execute();
}

/**
 * ADMINISTRATOR and SUPERVISOR assignments of members who are not banned, in the given
 * organizations: the people who can still manage members and roles there.
 */
export async function activeAdministrators(db: Queryable, organizationIds: string[]) {
  if (organizationIds.length === 0) return [];
  return db
    .selectFrom('role_assignments as r')
    .innerJoin('members as m', 'm.member_id', 'r.member_id')
    .innerJoin('organizations as o', 'o.organization_id', 'r.organization_id')
    .select(['r.member_id', 'r.organization_id', 'o.organization_name', 'r.role'])
    .where('r.organization_id', 'in', organizationIds)
    .where('r.role', 'in', ADMINISTRATIVE)
    .where('m.date_member_banned', 'is', null)
    // A time-boxed role ends by itself: only a standing one keeps the organization run (docs/decisions.md).
    .where('r.date_until', 'is', null)
    .execute();
}

/** Organizations where the member holds ADMINISTRATOR or SUPERVISOR. */
export async function administeredBy(db: Queryable, memberId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('role_assignments')
    .select('organization_id')
    .where('member_id', '=', memberId)
    .where('role', 'in', ADMINISTRATIVE)
    .execute();
  return [...new Set(rows.map((r) => r.organization_id))];
}
