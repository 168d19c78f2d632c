/** The queries of vendor support access (issue 33 item 2); the sign-in's own are auth/actor.ts loadAssignments. */
import type { ExpressionBuilder, Insertable } from 'kysely';
import type { Database } from '../../db/schema';
import type { Queryable } from '../../db/database';
import { SUPPORT_REQUEST_WAITS_HOURS, supportRequestLapsesAt } from '../../../common/policy';
import type { SupportRequestsTable } from '../../db/schema';
import { DEFAULT_SUPPORT_SETTINGS, type SupportSettings } from '../../../common/schemas/support-access';

const LISTED = [
  's.request_id', 's.organization_id', 'o.organization_name', 's.member_id', 's.requester_organization_id', 's.requester_name',
  's.requester_email', 's.role', 's.reason', 's.hours', 's.break_glass', 's.state', 's.date_requested', 's.date_decided',
  's.decided_by', 's.date_until', 's.date_ended', 's.ended_by',
] as const;

/** Requests made after this still wait at `at`. */
const waitingSince = (at: string) => new Date(Date.parse(at) - SUPPORT_REQUEST_WAITS_HOURS * 3_600_000).toISOString();

type Requests = ExpressionBuilder<Database, 'support_requests'>;
/** Waits for a decision at `at` (asked less than a day ago), or runs at `at`: what can still be decided or ended. */
const waits = (eb: Requests, at: string) => eb.and([eb('state', '=', 'REQUESTED'), eb('date_requested', '>', waitingSince(at))]);
const open = (eb: Requests, at: string) => eb.or([waits(eb, at), eb.and([eb('state', '=', 'APPROVED'), eb('date_until', '>', at)])]);

const listed = (db: Queryable) =>
  db.selectFrom('support_requests as s').innerJoin('organizations as o', 'o.organization_id', 's.organization_id').select(LISTED);
export type SupportRow = Awaited<ReturnType<ReturnType<typeof listed>['executeTakeFirstOrThrow']>>;

/** The organization's requests, newest first. */
export function listRequests(db: Queryable, organizationId: string): Promise<SupportRow[]> {
  return listed(db).where('s.organization_id', '=', organizationId).orderBy('s.request_id', 'desc').execute();
}

/** A member's own requests in every organization, newest first (at most the last 200). */
export function memberRequests(db: Queryable, memberId: string): Promise<SupportRow[]> {
  return listed(db).where('s.member_id', '=', memberId).orderBy('s.request_id', 'desc').limit(200).execute();
}

/** One request of the organization. */
export function findRequest(db: Queryable, organizationId: string, requestId: number): Promise<SupportRow | undefined> {
  return listed(db).where('s.organization_id', '=', organizationId).where('s.request_id', '=', requestId).executeTakeFirst();
}

/** The organization's accesses that run at `at`, for its banners. */
export function activeRequests(db: Queryable, organizationId: string, at: string): Promise<SupportRow[]> {
  return listed(db).where('s.organization_id', '=', organizationId).where('s.state', '=', 'APPROVED').where('s.date_until', '>', at)
    .orderBy('s.date_until').execute();
}

/** The member's request to the organization that waits or runs at `at`, if any. */
export function openRequest(db: Queryable, organizationId: string, memberId: string, at: string): Promise<SupportRow | undefined> {
  return listed(db).where('s.organization_id', '=', organizationId).where('s.member_id', '=', memberId)
    .where((eb) => open(eb as unknown as Requests, at)).executeTakeFirst();
}

export async function insertRequest(db: Queryable, row: Insertable<SupportRequestsTable>): Promise<number> {
  const inserted = await db.insertInto('support_requests').values(row).returning('request_id').executeTakeFirstOrThrow();
  return Number(inserted.request_id);
}

/**
 * Approves a request that waits at `at`: false when it no longer waits (the other of two decisions at once won, or it
 * lapsed, marked by the scan or not yet).
 */
export async function approve(db: Queryable, requestId: number, by: string, at: string, until: string): Promise<boolean> {
  const result = await db.updateTable('support_requests').set({ state: 'APPROVED', date_decided: at, decided_by: by, date_until: until })
    .where('request_id', '=', requestId).where((eb) => waits(eb, at)).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function deny(db: Queryable, requestId: number, by: string, at: string): Promise<boolean> {
  const result = await db.updateTable('support_requests').set({ state: 'DENIED', date_decided: at, decided_by: by })
    .where('request_id', '=', requestId).where((eb) => waits(eb, at)).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Ends a waiting or running request; false when it had already ended, expired, lapsed or been decided otherwise. */
export async function end(db: Queryable, requestId: number, by: string, at: string): Promise<boolean> {
  const result = await db.updateTable('support_requests').set({ state: 'ENDED', date_ended: at, ended_by: by })
    .where('request_id', '=', requestId).where((eb) => open(eb, at)).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** The accesses whose end has come and that are not marked yet, oldest end first. */
export function endedByTime(db: Queryable, at: string): Promise<SupportRow[]> {
  return listed(db).where('s.state', '=', 'APPROVED').where('s.date_until', '<=', at).orderBy('s.date_until').execute();
}

/** The requests that lapsed unanswered by `at` and are not marked yet, oldest first. */
export function lapsedByTime(db: Queryable, at: string): Promise<SupportRow[]> {
  return listed(db).where('s.state', '=', 'REQUESTED').where('s.date_requested', '<=', waitingSince(at)).orderBy('s.date_requested').execute();
}

/** Marks one lapsed request expired at its lapse: true only for the scan whose update changed the row. */
export async function markLapsed(db: Queryable, requestId: number, dateRequested: string): Promise<boolean> {
  const result = await db.updateTable('support_requests').set({ state: 'EXPIRED', date_ended: supportRequestLapsesAt(dateRequested) })
    .where('request_id', '=', requestId).where('state', '=', 'REQUESTED').executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Marks one expired: true only for the one scan whose update changed the row (exactly once with several instances). */
export async function markExpired(db: Queryable, requestId: number, until: string): Promise<boolean> {
  const result = await db.updateTable('support_requests').set({ state: 'EXPIRED', date_ended: until })
    .where('request_id', '=', requestId).where('state', '=', 'APPROVED').where('date_until', '<=', until).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function settingsOf(db: Queryable, organizationId: string): Promise<SupportSettings> {
  const row = await db.selectFrom('support_access_settings').select(['auto_approve', 'max_hours']).where('organization_id', '=', organizationId).executeTakeFirst();
  return row ? { auto_approve: Number(row.auto_approve) === 1, max_hours: Number(row.max_hours) } : DEFAULT_SUPPORT_SETTINGS;
}

export async function saveSettings(db: Queryable, organizationId: string, settings: SupportSettings): Promise<void> {
  const values = { auto_approve: settings.auto_approve ? 1 : 0, max_hours: settings.max_hours };
  await db.insertInto('support_access_settings').values({ organization_id: organizationId, ...values })
    .onConflict((oc) => oc.column('organization_id').doUpdateSet(values)).execute();
}

/** The organization's name, role and parent chain's existence (for messages). */
export function organizationOf(db: Queryable, organizationId: string) {
  return db.selectFrom('organizations').select(['organization_name', 'organization_role']).where('organization_id', '=', organizationId).executeTakeFirst();
}

/** Organizations a support person may ask for access to: every one but the operator (no parent), by name. */
export function requestableOrganizations(db: Queryable) {
  return db.selectFrom('organizations').select(['organization_id', 'organization_name', 'organization_role'])
    .where('parent_organization_id', 'is not', null).where('date_organization_banned', 'is', null).orderBy('organization_name').limit(5000).execute();
}
