/**
 * Member rules: lists and details with the roles the caller may see, saving contact data,
 * banning, unbanning and removing; each change audited in its transaction, in the journal of
 * the member's organization.
 */
import type { Updateable } from 'kysely';
import type { Db, Queryable, Tx } from '../../db/database';
import { lockRow } from '../../db/lock';
import type { MembersTable } from '../../db/schema';
import type { Role, Scope } from '../../../common/enums';
import { z } from 'zod';
import { memberSchema, type Member, type MemberExportQuery, type MemberListQuery, type MemberUpdate } from '../../../common/schemas/member';
import { csvDisposition, csvStream, journalExport, offsetBatches, type CsvColumn, exportedOrganizationName } from '../../http/csv';
import type { RequestActor } from '../../auth/actor';
import { authorize, refuseWhen } from '../../access/authorize';
import { abilitiesIn } from '../../access/abilities';
import { memberRefusal } from '../../../common/policy';
import { readableOrganizationIds } from '../../access/tree';
import { audit, type AuditSubject } from '../../db/audit';
import { badRequest, conflict, notFound } from '../../errors';
import { encodeJson, type JsonPage } from '../../http/kept-answers';
import * as repo from './repository';
import type { MemberRowWithOrganization } from './repository';
import { keepAnAdministrator } from './rules';

export const MISSING = 'Member not found.';

/** Members with their role assignments in the organizations the caller can read, in one query. */
async function toMembers(db: Queryable, actor: RequestActor, rows: MemberRowWithOrganization[]): Promise<Member[]> {
  const assignments = await repo.assignmentsOf(db, rows.map((r) => r.member_id), await readableOrganizationIds(db, actor));
  const may = await abilitiesIn(db, actor, 'member', rows.map((r) => r.organization_id));
  return rows.map((row) => ({
    member_id: row.member_id,
    name: row.name,
    given_name: row.given_name,
    family_name: row.family_name,
    job_role: row.job_role,
    member_email: row.member_email,
    mobile_phone: row.mobile_phone,
    office_phone: row.office_phone,
    address: row.address,
    date_member_banned: row.date_member_banned,
    ban_note: row.ban_note,
    organization_id: row.organization_id,
    organization_name: row.organization_name,
    roles: assignments.filter((a) => a.member_id === row.member_id).map(({ member_id: _m, ...role }) => role),
    abilities: may(row.organization_id).filter((action) => !memberRefusal(actor, action, row)),
  }));
}

/** The member of the path organization, or 404: a member of another organization is not found here. */
export async function memberOf(db: Queryable, organizationId: string, memberId: string) {
  const row = await repo.findMember(db, organizationId, memberId);
  if (!row) throw notFound(MISSING);
  return row;
}

/**
 * The first step of every change of a member (ban, unban, remove, roles): concurrent changes of one
 * member run one after the other, so each sees what the previous one did (db/lock.ts).
 */
export async function lockMember(tx: Tx, memberId: string) {
  if (!(await lockRow(tx, 'members', 'member_id', memberId))) throw notFound(MISSING);
}

const members = z.array(memberSchema);

/**
 * One page of members as JSON. A member shows the roles in the organizations the caller can read, and
 * abilities name the caller's own row apart (policy.ts memberRefusal): routes.ts keeps it per member.
 */
async function page(db: Db, actor: RequestActor, organizations: 'all' | string[], query: MemberListQuery): Promise<JsonPage> {
  const { rows, total } = await repo.listMembers(db, organizations, query);
  return { json: encodeJson(members, await toMembers(db, actor, rows)), total };
}

/** GET /api/organizations/{id}/members */
export async function listOrganizationMembers(db: Db, actor: RequestActor, organizationId: string, query: MemberListQuery) {
  await authorize(db, actor, 'read', organizationId);
  return page(db, actor, [organizationId], query);
}

/** GET /api/members: the users list across every organization the caller can read. */
export async function listAllMembers(db: Db, actor: RequestActor, query: MemberListQuery) {
  return page(db, actor, await readableOrganizationIds(db, actor), query);
}

/**
 * The member list as CSV (docs/decisions.md "CSV export"): every row under the list's filter and
 * order, a thousand at a time, with the roles the list shows the caller. `listOrganizationMembers`'s
 * authorization; journaled in the organization's journal.
 */
export async function exportOrganizationMembers(db: Db, actor: RequestActor, organizationId: string, query: MemberExportQuery, now: () => Date) {
  await authorize(db, actor, 'read', organizationId);
  const name = await exportedOrganizationName(db, organizationId);
  return exportMembers(db, actor, [organizationId], query, now, journalExport(db, actor, organizationId, `the members of ${name}`, query, now), name);
}

/** The users list as CSV, as `listAllMembers` reads it; journaled in the caller's organization's journal. */
export async function exportAllMembers(db: Db, actor: RequestActor, query: MemberExportQuery, now: () => Date) {
  const organizations = await readableOrganizationIds(db, actor);
  return exportMembers(db, actor, organizations, query, now, journalExport(db, actor, actor.organization_id, 'the members of all organizations', query, now), 'all');
}

const MEMBER_COLUMNS: CsvColumn<Member>[] = [
  { header: 'organization_id', value: (m) => m.organization_id },
  { header: 'organization_name', value: (m) => m.organization_name },
  { header: 'member_id', value: (m) => m.member_id },
  { header: 'name', value: (m) => m.name },
  { header: 'given_name', value: (m) => m.given_name },
  { header: 'family_name', value: (m) => m.family_name },
  { header: 'member_email', value: (m) => m.member_email },
  { header: 'job_role', value: (m) => m.job_role },
  { header: 'mobile_phone', value: (m) => m.mobile_phone },
  { header: 'office_phone', value: (m) => m.office_phone },
  { header: 'address', value: (m) => m.address },
  { header: 'banned', value: (m) => m.date_member_banned !== null },
  { header: 'date_member_banned', value: (m) => m.date_member_banned },
  { header: 'ban_note', value: (m) => m.ban_note },
  { header: 'roles', value: (m) => m.roles.map((r) => `${r.role} (${r.scope}) in ${r.organization_name}`).join('; ') },
];

function exportMembers(
  db: Db, actor: RequestActor, organizations: 'all' | string[], query: MemberExportQuery, now: () => Date,
  onEnd: (rows: number, complete: boolean) => Promise<void>, fileName: string,
) {
  const batches = offsetBatches(async (offset, limit) => toMembers(db, actor, (await repo.listMembers(db, organizations, { ...query, offset, limit })).rows));
  return { body: csvStream(MEMBER_COLUMNS, batches, onEnd), disposition: csvDisposition('members', fileName, now()) };
}

export async function getMember(db: Db, actor: RequestActor, organizationId: string, memberId: string): Promise<Member> {
  await authorize(db, actor, 'read', organizationId, MISSING);
  return (await toMembers(db, actor, [await memberOf(db, organizationId, memberId)]))[0];
}

const CONTACT_FIELDS = ['name', 'given_name', 'family_name', 'job_role', 'mobile_phone', 'office_phone', 'address'] as const;

/** PUT .../members/{memberId}: contact data only; the email is how the person signs in, so it stays. */
export async function saveMember(db: Db, actor: RequestActor, organizationId: string, memberId: string, input: MemberUpdate, now: Date) {
  await authorize(db, actor, 'member.save', organizationId, MISSING);
  await db.transaction().execute(async (tx) => {
    const row = await memberOf(tx, organizationId, memberId);
    if (input.member_email !== undefined && input.member_email.trim().toLowerCase() !== row.member_email) {
      throw badRequest('The email address identifies the member at sign-in and cannot be changed.', 'member_email');
    }
    const changes: Updateable<MembersTable> = {};
    for (const field of CONTACT_FIELDS) {
      const value = input[field];
      if (value !== undefined && value !== row[field]) Object.assign(changes, { [field]: value });
    }
    // Saving what is already there changes nothing, so it writes nothing and journals nothing.
    if (Object.keys(changes).length === 0) return;
    await repo.updateMember(tx, memberId, changes);
    const what = Object.keys(changes).join(', ');
    await audit(tx, { reason: 'MEMBER_SAVED', message: `Saved member ${row.member_email} (${what}).`, organization_id: organizationId, member_email: actor.email, now });
  });
  return getMember(db, actor, organizationId, memberId);
}

/** DELETE .../members/{memberId}. Not a ban: a trusted domain admits the person again at sign-in. */
export async function removeMember(db: Db, actor: RequestActor, organizationId: string, memberId: string, now: Date) {
  await authorize(db, actor, 'member.remove', organizationId, MISSING);
  refuseWhen(memberRefusal(actor, 'member.remove', { member_id: memberId }));
  await db.transaction().execute(async (tx) => {
    await lockMember(tx, memberId);
    const row = await memberOf(tx, organizationId, memberId);
    await keepAnAdministrator(tx, { member_id: memberId });
    await repo.deleteMember(tx, memberId);
    await audit(tx, { reason: 'MEMBER_REMOVED', message: `Removed member ${row.member_email}.`, organization_id: organizationId, member_email: actor.email, now });
  });
}

/** POST .../members/{memberId}/ban?note. The member is refused from their very next call (auth/actor.ts). */
export async function banMember(db: Db, actor: RequestActor, organizationId: string, memberId: string, note: string | undefined, now: Date) {
  await authorize(db, actor, 'member.ban', organizationId, MISSING);
  refuseWhen(memberRefusal(actor, 'member.ban', { member_id: memberId }));
  await db.transaction().execute(async (tx) => {
    await lockMember(tx, memberId);
    const row = await memberOf(tx, organizationId, memberId);
    if (row.date_member_banned) throw conflict(`${row.member_email} is already banned.`);
    await keepAnAdministrator(tx, { member_id: memberId });
    const banNote = note?.trim() || null;
    await repo.updateMember(tx, memberId, { date_member_banned: now.toISOString(), ban_note: banNote });
    const message = `Banned member ${row.member_email}${banNote ? `: ${banNote}` : '.'}`;
    await audit(tx, { reason: 'MEMBER_BANNED', message, organization_id: organizationId, member_email: actor.email, now, subject: memberSubject(row) });
  });
  return getMember(db, actor, organizationId, memberId);
}

/** POST .../members/{memberId}/unban */
export async function unbanMember(db: Db, actor: RequestActor, organizationId: string, memberId: string, now: Date) {
  await authorize(db, actor, 'member.unban', organizationId, MISSING);
  await db.transaction().execute(async (tx) => {
    await lockMember(tx, memberId);
    const row = await memberOf(tx, organizationId, memberId);
    if (!row.date_member_banned) throw conflict(`${row.member_email} is not banned.`);
    await repo.updateMember(tx, memberId, { date_member_banned: null, ban_note: null });
    await audit(tx, { reason: 'MEMBER_UNBANNED', message: `Unbanned member ${row.member_email}.`, organization_id: organizationId, member_email: actor.email, now, subject: memberSubject(row) });
  });
  return getMember(db, actor, organizationId, memberId);
}

/** A member as events name it (common/events.ts). */
export function memberSubject(row: { member_id: string; member_email: string }, more: Record<string, string | null> = {}): AuditSubject {
  return { type: 'member', id: row.member_id, details: { member_email: row.member_email, ...more } };
}

/** A member the portal makes itself (the first operator: organizations/first-operator.ts) with these roles; the caller journals it. */
export async function addMember(tx: Tx, member: { member_id: string; organization_id: string; member_email: string; name: string; date_created: string }, roles: Array<{ role: Role; scope: Scope }>) {
  await repo.insertMember(tx, member);
  for (const { role, scope } of roles) {
    await repo.insertAssignment(tx, { member_id: member.member_id, organization_id: member.organization_id, role, scope, date_assigned: member.date_created });
  }
}
