/**
 * The access review (issue 33): per organization for those common/policy.ts lets review it (`access.review`), and
 * across every organization they may review (the admin area). Answered afresh each time: it reads the clock (a
 * time-boxed role leaves it at its end) and is asked a few times a quarter.
 */
import { z } from 'zod';
import { actorFor } from '../../../common/policy';
import {
  accessReviewRowSchema, type AccessReviewExportQuery, type AccessReviewQuery, type AccessReviewRow,
} from '../../../common/schemas/access-review';
import type { RequestActor } from '../../auth/actor';
import { authorize } from '../../access/authorize';
import { readableOrganizationIds } from '../../access/tree';
import type { Db } from '../../db/database';
import { csvDisposition, csvStream, exportedOrganizationName, journalExport, offsetBatches, type CsvColumn } from '../../http/csv';
import { encodeJson, type JsonPage } from '../../http/kept-answers';
import * as repo from './repository';

const rows = z.array(accessReviewRowSchema);

/** The organizations whose review the actor may read: those its reviewing roles reach by scope. */
const reviewable = (db: Db, actor: RequestActor) => readableOrganizationIds(db, { ...actorFor(actor, 'access.review'), versions: actor.versions });

async function page(db: Db, organizations: 'all' | string[], query: AccessReviewQuery, now: Date): Promise<JsonPage> {
  const [list, total] = await Promise.all([
    repo.reviewRows(db, organizations, query, now, query),
    repo.countRows(db, organizations, query, now),
  ]);
  return { json: encodeJson(rows, list), total };
}

/** GET /api/organizations/{id}/access-review */
export async function organizationReview(db: Db, actor: RequestActor, organizationId: string, query: AccessReviewQuery, now: Date) {
  await authorize(db, actor, 'access.review', organizationId);
  return page(db, [organizationId], query, now);
}

/** GET /api/access-review: every organization the caller may review (none: an empty list). */
export async function allReview(db: Db, actor: RequestActor, query: AccessReviewQuery, now: Date) {
  return page(db, await reviewable(db, actor), query, now);
}

const COLUMNS: CsvColumn<AccessReviewRow>[] = [
  { header: 'organization_id', value: (r) => r.organization_id },
  { header: 'organization_name', value: (r) => r.organization_name },
  { header: 'member_id', value: (r) => r.member_id },
  { header: 'member_email', value: (r) => r.member_email },
  { header: 'name', value: (r) => r.name },
  { header: 'role', value: (r) => r.role },
  { header: 'scope', value: (r) => r.scope },
  { header: 'kind', value: (r) => r.kind },
  { header: 'since', value: (r) => r.since },
  { header: 'until', value: (r) => r.until },
  { header: 'granted_by', value: (r) => r.granted_by },
  { header: 'support_request', value: (r) => (r.support_request === null ? null : String(r.support_request)) },
  { header: 'break_glass', value: (r) => (r.kind === 'SUPPORT' ? String(r.break_glass) : null) },
];

function exportRows(db: Db, organizations: 'all' | string[], query: AccessReviewExportQuery, now: () => Date, onEnd: ReturnType<typeof journalExport>, name: string) {
  const at = now();
  const batches = offsetBatches((offset, limit) => repo.reviewRows(db, organizations, query, at, { offset, limit }));
  return { body: csvStream(COLUMNS, batches, onEnd), disposition: csvDisposition('access-review', name, at) };
}

/** GET /api/organizations/{id}/access-review.csv, journaled in the organization's journal. */
export async function exportOrganizationReview(db: Db, actor: RequestActor, organizationId: string, query: AccessReviewExportQuery, now: () => Date) {
  await authorize(db, actor, 'access.review', organizationId);
  const name = await exportedOrganizationName(db, organizationId);
  return exportRows(db, [organizationId], query, now, journalExport(db, actor, organizationId, `the access review of ${name}`, query, now), name);
}

/** GET /api/access-review.csv, journaled in the caller's organization's journal. */
export async function exportAllReview(db: Db, actor: RequestActor, query: AccessReviewExportQuery, now: () => Date) {
  const organizations = await reviewable(db, actor);
  return exportRows(db, organizations, query, now, journalExport(db, actor, actor.organization_id, 'the access review of all organizations', query, now), 'all');
}
