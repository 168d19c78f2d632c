/**
 * License rules: who may act (policy.ts), in which state (status.ts licenseStatus), the optimistic
 * lock on `version`, and the audit record of each change in the same transaction.
 */
import { randomUUID } from 'node:crypto';
import type { Updateable } from 'kysely';
import { z } from 'zod';
import type { Db, Queryable, Tx } from '../../db/database';
import type { Versions } from '../../db/versions';
import type { LicensesTable } from '../../db/schema';
import type { RequestActor } from '../../auth/actor';
import type { Action, Actor } from '../../../common/policy';
import { abilitiesIn } from '../../access/abilities';
import type { LicenseExportQuery, LicenseListQuery } from '../../../common/schemas/lists';
import { csvDisposition, csvStream, journalExport, keyedBatches, exportedOrganizationName } from '../../http/csv';
import { exportedLicense, LICENSE_CSV_COLUMNS } from './csv-export';
import type { PendingLicenseSort } from '../../../common/schemas/pending';
import { licenseSchema, type License, type licenseApprovalSchema, type licenseRequestSchema } from '../../../common/schemas/license';
import { daysLeft, daysLeftChangesAt, licenseStatus, RENEWAL_WINDOW_DAYS, type LicenseStatus } from '../../../common/status';
import { displayDateIn } from '../../../common/zones';
import { approvedWindow, renewalWindow, requestedWindow } from './days';
import { authorize } from '../../access/authorize';
import { readableOrganizationIds } from '../../access/tree';
import { audit, type AuditReason, type AuditSubject } from '../../db/audit';
import { conflict, notFound } from '../../errors';
import { encodeJson, type JsonPage } from '../../http/kept-answers';
import * as repo from './repository';
import type { LicenseRow } from './repository';

const MISSING = 'License not found.';
const MAX_NAME = 200;

/** A license as the API shows it, with what the caller may do to it (access/abilities.ts). */
export function toLicense(row: LicenseRow, now: Date, abilities: Action[]): License {
  // A rejected successor extends nothing: the original is open for Renew or 'No renew' again.
  const successor = row.extended_by_license_id && !row.s_date_rejected ? row : null;
  return {
    license_id: row.license_id,
    license_name: row.license_name,
    license_scope: row.license_scope,
    date_valid_from: row.date_valid_from,
    days_valid: row.days_valid,
    date_valid_until: row.date_valid_until,
    time_zone: row.time_zone,
    note: row.note,
    date_approved: row.date_approved,
    date_rejected: row.date_rejected,
    date_expiry_acknowledged: row.date_expiry_acknowledged,
    days_left: daysLeft(row.date_valid_until, now),
    version: row.version,
    organization_id: row.organization_id,
    organization_name: row.organization_name,
    date_created: row.date_created,
    extended_by: successor
      ? {
          license_id: successor.extended_by_license_id!,
          license_name: successor.s_license_name!,
          date_valid_from: successor.s_date_valid_from!,
          date_valid_until: successor.s_date_valid_until!,
          date_approved: successor.s_date_approved ?? null,
        }
      : null,
    abilities,
  };
}

const licenses = z.array(licenseSchema);

/**
 * A page of licenses as JSON with the instant it changes by time alone: of a license only
 * `days_left` reads the clock (toLicense; pending.test.ts fails if another field starts to).
 */
export function licensePage(rows: LicenseRow[], total: number, now: Date, may: (organizationId: string) => Action[]): JsonPage {
  return {
    json: encodeJson(licenses, rows.map((row) => toLicense(row, now, may(row.organization_id)))),
    total,
    changesAt: Math.min(Infinity, ...rows.map((row) => daysLeftChangesAt(row.date_valid_until, now))),
  };
}

/** One page of the pending approvals or acknowledgements as JSON (pending/service.ts joins the pages). */
export async function pendingPage(
  db: Queryable, actor: Actor & { versions?: Versions }, organizations: 'all' | string[], kind: 'approval' | 'acknowledgement', now: Date,
  paging: { offset: number; limit: number; sort?: PendingLicenseSort },
): Promise<JsonPage> {
  const { rows, total } = await repo.listPendingLicenses(db, organizations, kind, now, paging);
  return licensePage(rows, total, now, await abilitiesIn(db, actor, 'license', rows.map((r) => r.organization_id)));
}

/**
 * One page of licenses as JSON, with the instant it changes by time alone: its days left change, or a
 * row enters or leaves filters that read the clock (an open list fetches it again then).
 */
async function page(db: Db, actor: RequestActor, organizations: 'all' | string[], query: LicenseListQuery, now: Date): Promise<JsonPage> {
  const [{ rows, total }, filterChange] = await Promise.all([
    repo.listLicenses(db, organizations, query, now),
    repo.nextFilterChange(db, organizations, query, now),
  ]);
  const json = licensePage(rows, total, now, await abilitiesIn(db, actor, 'license', rows.map((r) => r.organization_id)));
  return { ...json, changesAt: Math.min(json.changesAt ?? Infinity, filterChange) };
}

export async function listForOrganization(db: Db, actor: RequestActor, organizationId: string, query: LicenseListQuery, now: Date) {
  await authorize(db, actor, 'read', organizationId);
  return page(db, actor, [organizationId], query, now);
}

/** The admin list: licenses of every organization where the actor has an applying role. */
export async function listForActor(db: Db, actor: RequestActor, query: LicenseListQuery, now: Date) {
  return page(db, actor, await readableOrganizationIds(db, actor), query, now);
}

/**
 * The license list as CSV (docs/decisions.md "CSV export"): every row under the list's filters and
 * order, a thousand at a time, approval, validity, days left and extension from licenseStatus at the
 * request's instant, as the list shows them. `listForOrganization`'s authorization; journaled.
 */
export async function exportForOrganization(db: Db, actor: RequestActor, organizationId: string, query: LicenseExportQuery, now: () => Date) {
  await authorize(db, actor, 'read', organizationId);
  const name = await exportedOrganizationName(db, organizationId);
  return exportLicenses(db, [organizationId], query, now, journalExport(db, actor, organizationId, `the licenses of ${name}`, query, now), name);
}

/** The admin list as CSV, as `listForActor` reads it; journaled in the caller's organization's journal. */
export async function exportForActor(db: Db, actor: RequestActor, query: LicenseExportQuery, now: () => Date) {
  const organizations = await readableOrganizationIds(db, actor);
  return exportLicenses(db, organizations, query, now, journalExport(db, actor, actor.organization_id, 'the licenses of all organizations', query, now), 'all');
}

function exportLicenses(
  db: Db, organizations: 'all' | string[], query: LicenseExportQuery, now: () => Date,
  onEnd: (rows: number, complete: boolean) => Promise<void>, fileName: string,
) {
  const at = now();
  const batches = exported(keyedBatches(() => repo.listLicenseKeys(db, organizations, query, at), (keys) => repo.licensesByKey(db, keys), (l) => l.license_id), at);
  return { body: csvStream(LICENSE_CSV_COLUMNS, batches, onEnd), disposition: csvDisposition('licenses', fileName, at) };
}

/** A pending list's rows at `at` as its CSV writes them (pending/export.ts), a thousand at a time, in the JSON list's order (by key: http/csv.ts). */
export function pendingLicenseBatches(db: Queryable, organizations: 'all' | string[], kind: 'approval' | 'acknowledgement', at: Date, sort?: PendingLicenseSort) {
  return exported(keyedBatches(() => repo.listPendingLicenseKeys(db, organizations, kind, at, sort), (keys) => repo.licensesByKey(db, keys), (l) => l.license_id), at);
}

/** License rows as their CSV writes them, batch by batch. */
async function* exported(batches: AsyncIterable<readonly LicenseRow[]>, at: Date) {
  for await (const batch of batches) yield batch.map((row) => exportedLicense(toLicense(row, at, []), at));
}

/** Finds the license and checks the action against its own organization; other tenants see 404. */
export async function findAuthorized(db: Db, actor: RequestActor, action: Action, licenseId: string): Promise<LicenseRow> {
  const row = await repo.findLicense(db, licenseId);
  await authorize(db, actor, action, row?.organization_id ?? '', MISSING);
  if (!row) throw notFound(MISSING);
  return row;
}

export async function getLicense(db: Db, actor: RequestActor, licenseId: string, now: Date): Promise<License> {
  return shown(db, actor, await findAuthorized(db, actor, 'read', licenseId), now);
}

/** A license row as this caller is shown it. */
async function shown(db: Queryable, actor: RequestActor, row: LicenseRow, now: Date): Promise<License> {
  return toLicense(row, now, (await abilitiesIn(db, actor, 'license', [row.organization_id]))(row.organization_id));
}

export async function requestLicense(
  db: Db, actor: RequestActor, organizationId: string, input: z.output<typeof licenseRequestSchema>, now: Date,
): Promise<License> {
  await authorize(db, actor, 'license.request', organizationId);
  const licenseId = randomUUID();
  // Bad input (a start that is no midnight in the zone) is refused before anything is written.
  const window = requestedWindow(input, now);
  await db.transaction().execute(async (tx) => {
    if (await repo.nameTaken(tx, input.license_name)) throw nameTaken(input.license_name);
    await repo.insertLicense(tx, {
      license_id: licenseId,
      license_name: input.license_name,
      name_search: input.license_name.toLowerCase(),
      license_scope: input.license_scope,
      organization_id: organizationId,
      ...window,
      days_valid: input.days_valid,
      note: input.note?.trim() || null,
      date_approved: null,
      date_rejected: null,
      date_expiry_acknowledged: null,
      approver_member_id: null,
      extended_by_license_id: null,
      version: 1,
      date_created: now.toISOString(),
    });
    await audit(tx, {
      reason: 'LICENSE_REQUESTED',
      message: `Requested license ${input.license_name} (${input.license_scope}, ${input.days_valid} days from ${displayDateIn(window.date_valid_from, window.time_zone)} in ${window.time_zone}).`,
      organization_id: organizationId,
      member_email: actor.email,
      now,
      subject: licenseSubject({ license_id: licenseId, license_name: input.license_name, date_valid_until: window.date_valid_until }),
    });
  });
  return shown(db, actor, (await repo.findLicense(db, licenseId))!, now);
}

interface Step {
  action: Action;
  reason: AuditReason;
  /** Why the state refuses the step, or null when it allows it. */
  refuse(status: LicenseStatus, license: License): string | null;
  /** The change to the license and its audit message; may write more (a renewal's successor). */
  apply(tx: Tx, row: LicenseRow): Promise<{ changes: Updateable<LicensesTable>; message: string; result?: string }>;
}

const stale = (current: number, sent: number) =>
  conflict(`The license was changed meanwhile (version ${current}, you sent ${sent}). Reload it and try again.`);

/**
 * Runs one change of a license: authorization, then inside one transaction the version check, the
 * state check, the optimistic lock, the change and its audit record. Returns the id of the license
 * to answer with (the successor for a renewal).
 */
async function change(db: Db, actor: RequestActor, licenseId: string, version: number, step: Step, now: Date): Promise<string> {
  await findAuthorized(db, actor, step.action, licenseId);
  return db.transaction().execute(async (tx) => {
    // Read again inside the transaction: a concurrent change may have moved the state on.
    const row = await repo.findLicense(tx, licenseId);
    if (!row) throw notFound(MISSING);
    if (row.version !== version) throw stale(row.version, version);
    const license = toLicense(row, now, []); // for its status only
    const refusal = step.refuse(licenseStatus(license, now), license);
    if (refusal) throw conflict(refusal);
    // Of two callers racing past the checks above, only one gets past this line.
    if (!(await repo.claimVersion(tx, licenseId, version))) throw stale(version + 1, version);
    const { changes, message, result } = await step.apply(tx, row);
    await repo.updateLicense(tx, licenseId, changes);
    const subject = licenseSubject(row, result ? { successor_license_id: result } : {});
    await audit(tx, { reason: step.reason, message, organization_id: row.organization_id, member_email: actor.email, now, subject });
    return result ?? licenseId;
  });
}

async function answer(db: Db, actor: RequestActor, licenseId: string, now: Date): Promise<License> {
  return shown(db, actor, (await repo.findLicense(db, licenseId))!, now);
}

const notOpen = (s: LicenseStatus) => (s.approval === 'REJECTED' ? 'The license is rejected.' : 'The license is already approved.');

export async function approveLicense(
  db: Db, actor: RequestActor, licenseId: string, input: z.output<typeof licenseApprovalSchema>, now: Date,
): Promise<License> {
  await change(db, actor, licenseId, input.version, {
    action: 'license.approve',
    reason: 'LICENSE_APPROVED',
    refuse: (s) => (s.can_approve ? null : s.approval === 'REJECTED' ? 'A rejected license cannot be approved.' : 'The license is already approved.'),
    apply: async (tx, row) => {
      // The approver may correct the request before approving it; what they send is what is approved.
      const name = input.license_name ?? row.license_name;
      if (name !== row.license_name && (await repo.nameTaken(tx, name, licenseId))) throw nameTaken(name);
      const days = input.days_valid ?? row.days_valid;
      const window = approvedWindow(row, { date_valid_from: input.date_valid_from, days_valid: days, time_zone: input.time_zone });
      const note = input.note === undefined ? row.note : input.note?.trim() || null;
      const scope = input.license_scope ?? row.license_scope;
      const edited = [
        name !== row.license_name && 'name', scope !== row.license_scope && 'scope', window.date_valid_from !== row.date_valid_from && 'valid from',
        days !== row.days_valid && 'days valid', note !== row.note && 'note',
      ].filter(Boolean);
      return {
        changes: {
          license_name: name, name_search: name.toLowerCase(), license_scope: scope, ...window, days_valid: days,
          note, date_approved: now.toISOString(), approver_member_id: actor.member_id,
        },
        message: `Approved license ${name}${edited.length ? ` (changed before approval: ${edited.join(', ')})` : ''}.`,
      };
    },
  }, now);
  return answer(db, actor, licenseId, now);
}

export async function rejectLicense(db: Db, actor: RequestActor, licenseId: string, version: number, now: Date): Promise<License> {
  await change(db, actor, licenseId, version, {
    action: 'license.reject',
    reason: 'LICENSE_REJECTED',
    refuse: (s) => (s.can_reject ? null : s.approval === 'REJECTED' ? 'The license is already rejected.' : notOpen(s)),
    apply: async (_tx, row) => ({ changes: { date_rejected: now.toISOString() }, message: `Rejected license ${row.license_name}.` }),
  }, now);
  return answer(db, actor, licenseId, now);
}

/** Why an approved license cannot be renewed or acknowledged, in words the person can act on. */
function closed(s: LicenseStatus): string | null {
  if (s.approval !== 'APPROVED') return 'Only an approved license can be renewed or have its expiry acknowledged.';
  if (s.extension === 'EXTENSION_REQUESTED') return 'A renewal of this license is already waiting for approval.';
  if (s.extension === 'EXTENDED') return 'The license is already extended.';
  if (s.expiry_acknowledged) return 'The expiry of this license is already acknowledged.';
  return null;
}

/**
 * A name already taken, as a 409 about `license_name`, so the form shows it under the field (a
 * concurrent insert of the name trips the unique index instead: the same message, without it).
 */
const nameTaken = (name: string) => conflict(repo.duplicateName(name).message, 'license_name');

const RENEWAL = / \(renewal \d+\)$/;

/** "<name> (renewal N)" with the smallest free N from 1 on (the first renewal is 1); a renewal of a renewal counts on. */
async function renewalName(tx: Tx, name: string): Promise<string> {
  const base = name.replace(RENEWAL, '');
  const taken = await repo.namesContaining(tx, base.slice(0, 100));
  for (let n = 1; ; n++) {
    const suffix = ` (renewal ${n})`;
    const candidate = base.slice(0, MAX_NAME - suffix.length) + suffix;
    if (!taken.has(candidate.toLowerCase())) return candidate;
  }
}

/**
 * Makes the successor (Not approved, valid from the requester's today, days.ts `renewalWindow`) and
 * links the original to it. Answers the successor.
 */
export async function renewLicense(
  db: Db, actor: RequestActor, licenseId: string, version: number, now: Date, caller: { today?: string; time_zone?: string } = {},
): Promise<License> {
  const successorId = await change(db, actor, licenseId, version, {
    action: 'license.renew',
    reason: 'LICENSE_RENEWED',
    refuse: (s) =>
      closed(s) ?? (s.can_renew ? null : `A license can be renewed in its last ${RENEWAL_WINDOW_DAYS} days or once it has expired.`),
    apply: async (tx, row) => {
      const id = randomUUID();
      // Checked here, after who and which state: a caller learns nothing of a license they may not renew.
      const window = renewalWindow(now, row, caller);
      const name = await renewalName(tx, row.license_name);
      await repo.insertLicense(tx, {
        license_id: id, license_name: name, name_search: name.toLowerCase(), license_scope: row.license_scope,
        organization_id: row.organization_id, ...window, days_valid: row.days_valid, note: `Renewal of ${row.license_name}.`,
        date_approved: null, date_rejected: null, date_expiry_acknowledged: null, approver_member_id: null,
        extended_by_license_id: null, version: 1, date_created: now.toISOString(),
      });
      return { changes: { extended_by_license_id: id }, message: `Renewed license ${row.license_name} as ${name}, waiting for approval.`, result: id };
    },
  }, now);
  return answer(db, actor, successorId, now);
}

/** 'No renew': the organization lets an expired license go. */
export async function acknowledgeExpiry(db: Db, actor: RequestActor, licenseId: string, version: number, now: Date): Promise<License> {
  await change(db, actor, licenseId, version, {
    action: 'license.acknowledgeExpiry',
    reason: 'LICENSE_EXPIRY_ACKNOWLEDGED',
    refuse: (s) => closed(s) ?? (s.can_acknowledge_expiry ? null : 'The license has not expired yet.'),
    apply: async (_tx, row) => ({
      changes: { date_expiry_acknowledged: now.toISOString() },
      message: `Acknowledged the expiry of license ${row.license_name} (no renewal).`,
    }),
  }, now);
  return answer(db, actor, licenseId, now);
}

/** A license as events name it (common/events.ts). */
export function licenseSubject(
  row: { license_id: string; license_name: string; date_valid_until: string }, more: Record<string, string> = {},
): AuditSubject {
  return { type: 'license', id: row.license_id, details: { license_name: row.license_name, date_valid_until: row.date_valid_until, ...more } };
}
