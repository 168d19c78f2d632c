/**
 * Bulk actions on licenses (issue 12 item 4; docs/decisions.md "Bulk actions"): approve, reject or
 * acknowledge the expiry ('No renew') of many at once, each through the single call's own service
 * function (authorized, version-locked, checked and journaled in its own transaction); a refusal is
 * that item's answer and the others go on. Approval in bulk approves the license as requested (no
 * edits). The version checked is the one sent with the item, else the one read as the item's turn comes.
 */
import type { Db } from '../../db/database';
import type { RequestActor } from '../../auth/actor';
import type { Action } from '../../../common/policy';
import type { License } from '../../../common/schemas/license';
import { BULK_LIMIT, type BulkPreview, type LicenseBulkAction, type LicenseBulkBody, type LicenseBulkResult } from '../../../common/schemas/bulk';
import type { LicenseExportQuery } from '../../../common/schemas/lists';
import { authorize } from '../../access/authorize';
import { bulkScope, eachItem, summary } from '../../access/bulk';
import * as repo from './repository';
import { acknowledgeExpiry, approveLicense, rejectLicense } from './service';

interface BulkAction {
  action: Action;
  /** The rows "all that match" takes: those whose state the action applies to (status.ts can_…). */
  state: repo.LicenseState;
  change(db: Db, actor: RequestActor, licenseId: string, version: number, now: Date): Promise<License>;
  done: string;
}

const ACTIONS: Record<LicenseBulkAction, BulkAction> = {
  approve: { action: 'license.approve', state: 'notApproved', change: (db, actor, id, version, now) => approveLicense(db, actor, id, { version }, now), done: 'Approved.' },
  reject: { action: 'license.reject', state: 'notApproved', change: rejectLicense, done: 'Rejected.' },
  'acknowledge-expiry': { action: 'license.acknowledgeExpiry', state: 'pendingAcknowledgement', change: acknowledgeExpiry, done: 'Expiry acknowledged (no renewal).' },
};

type Filters = LicenseExportQuery;

/** How many rows of `organizations` match (in `state`, when given): the list's own count. */
async function count(db: Db, organizations: 'all' | string[], filters: Filters, now: Date, state?: repo.LicenseState) {
  return (await repo.listLicenses(db, organizations, { ...filters, state, offset: 0, limit: 1 }, now)).total;
}

/** GET /api/bulk/licenses/{action}/preview: what "all that match" would act on, counted before confirming. */
export async function preview(db: Db, actor: RequestActor, name: LicenseBulkAction, query: Filters & { organization_id?: string }, now: Date): Promise<BulkPreview> {
  const { organization_id, ...filters } = query;
  const { action, state } = ACTIONS[name];
  const scope = await bulkScope(db, actor, action, organization_id);
  const [matching, actionable] = await Promise.all([count(db, scope.reading, filters, now), count(db, scope.acting, filters, now, state)]);
  return { matching, actionable, limit: BULK_LIMIT };
}

/** POST /api/bulk/licenses/{action}: the items named, or up to `limit` of all that match. */
export async function run(
  db: Db, actor: RequestActor, name: LicenseBulkAction, body: LicenseBulkBody, now: () => Date, log: { error(o: object, m: string): void },
): Promise<LicenseBulkResult> {
  const bulk = ACTIONS[name];
  const act = async (item: { license_id: string; version?: number }) => {
    // Read before the service authorizes only for its number: a license the caller may not see is that call's 404 all the same.
    const version = item.version ?? (await repo.findLicense(db, item.license_id))?.version ?? 0;
    const license = await bulk.change(db, actor, item.license_id, version, now());
    return { message: bulk.done, license_name: license.license_name };
  };
  const answer = (item: { license_id: string; license_name?: string | null; version?: number }) => ({ license_id: item.license_id, license_name: item.license_name ?? null });
  if (body.items) {
    const results = await eachItem(body.items.map((i) => ({ license_id: i.license_id, version: i.version, license_name: null as string | null })), act, log);
    return summary(results.map((r) => ({ ...answer(r), outcome: r.outcome, status: r.status, message: r.message })), null);
  }

  const { organization_id, ...filters } = body.match!;
  // One organization's list: refused as the single call would be there (404, 403), before anything is read.
  if (organization_id !== undefined) await authorize(db, actor, bulk.action, organization_id);
  const { acting } = await bulkScope(db, actor, bulk.action, organization_id);
  const { rows } = await repo.listLicenses(db, acting, { ...filters, state: bulk.state, offset: 0, limit: body.limit ?? BULK_LIMIT }, now());
  const results = await eachItem(rows.map((r) => ({ license_id: r.license_id, license_name: r.license_name as string | null })), act, log);
  return summary(results.map((r) => ({ ...answer(r), outcome: r.outcome, status: r.status, message: r.message })), await count(db, acting, filters, now(), bulk.state));
}
