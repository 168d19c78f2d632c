/**
 * Bulk actions on certificates (issue 12 item 4; docs/decisions.md "Bulk actions"): approve, revoke
 * or acknowledge the expiry of many at once. Every item goes through `transition`, the single call's
 * own function: authorized through the policy, locked, checked and journaled in a transaction of its
 * own; a refusal is that item's answer and the others go on. "All that match" takes the list's query,
 * narrowed in SQL to the rows the action applies to, in organizations where the caller may take it.
 */
import type { Db } from '../../db/database';
import type { RequestActor } from '../../auth/actor';
import type { Action } from '../../../common/policy';
import { BULK_LIMIT, type BulkPreview, type CertificateBulkAction, type CertificateBulkBody, type CertificateBulkResult } from '../../../common/schemas/bulk';
import type { CertificateExportQuery } from '../../../common/schemas/lists';
import { authorize } from '../../access/authorize';
import { bulkScope, eachItem, summary } from '../../access/bulk';
import * as repo from './repository';
import { transition, type CertificateTransition } from './service';

interface BulkAction {
  transition: CertificateTransition;
  action: Action;
  /** The rows "all that match" takes: those whose state the action applies to (status.ts can_…). */
  state: repo.CertificateState;
  done: string;
}

const ACTIONS: Record<CertificateBulkAction, BulkAction> = {
  approve: { transition: 'approve', action: 'certificate.approve', state: 'notApproved', done: 'Approved.' },
  revoke: { transition: 'revoke', action: 'certificate.revoke', state: 'notRevoked', done: 'Revoked.' },
  // All that match: the expired ones waiting for it (the pending tasks' list); a chosen item may be acknowledged ahead.
  'acknowledge-expiry': { transition: 'acknowledgeExpiry', action: 'certificate.acknowledgeExpiry', state: 'pendingAcknowledgement', done: 'Expiry acknowledged.' },
};

type Filters = CertificateExportQuery;

/** How many rows of `organizations` match (in `state`, when given): the list's own count. */
async function count(db: Db, organizations: 'all' | string[], filters: Filters, now: Date, state?: repo.CertificateState) {
  return (await repo.listCertificates(db, organizations, { ...filters, state, offset: 0, limit: 1 }, now)).total;
}

/** GET /api/bulk/certificates/{action}/preview: what "all that match" would act on, counted before confirming. */
export async function preview(db: Db, actor: RequestActor, name: CertificateBulkAction, query: Filters & { organization_id?: string }, now: Date): Promise<BulkPreview> {
  const { organization_id, ...filters } = query;
  const { action, state } = ACTIONS[name];
  const scope = await bulkScope(db, actor, action, organization_id);
  const [matching, actionable] = await Promise.all([count(db, scope.reading, filters, now), count(db, scope.acting, filters, now, state)]);
  return { matching, actionable, limit: BULK_LIMIT };
}

/** POST /api/bulk/certificates/{action}: the items named, or up to `limit` of all that match. */
export async function run(
  db: Db, actor: RequestActor, name: CertificateBulkAction, body: CertificateBulkBody, now: () => Date, log: { error(o: object, m: string): void },
): Promise<CertificateBulkResult> {
  const bulk = ACTIONS[name];
  const act = async (item: { organization_id: string; distinguished_name: string }) => {
    await transition(db, actor, bulk.transition, item.distinguished_name, item.organization_id, now());
    return { message: bulk.done };
  };
  if (body.items) return summary(await eachItem(body.items, act, log), null);

  const { organization_id, ...filters } = body.match!;
  // One organization's list: refused as the single call would be there (404, 403), before anything is read.
  if (organization_id !== undefined) await authorize(db, actor, bulk.action, organization_id);
  const { acting } = await bulkScope(db, actor, bulk.action, organization_id);
  const { rows } = await repo.listCertificates(db, acting, { ...filters, state: bulk.state, offset: 0, limit: body.limit ?? BULK_LIMIT }, now());
  const items = rows.map((r) => ({ organization_id: r.organization_id, distinguished_name: r.distinguished_name }));
  const results = await eachItem(items, act, log);
  return summary(results, await count(db, acting, filters, now(), bulk.state));
}
