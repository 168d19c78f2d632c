/**
 * Pending tasks (SPEC.md §7 GET /api/approve, GET /api/acknowledge): approvals and expiry
 * acknowledgements waiting in the organizations where the caller has an applying role, one page
 * of each list with its true total (docs/decisions.md "Pending tasks").
 *
 * The answer is written as JSON from the two pages, each already encoded by the response schema.
 */
import type { Actor } from '../../../common/policy';
import type { PendingQuery } from '../../../common/schemas/pending';
import type { Queryable } from '../../db/database';
import type { Versions } from '../../db/versions';
import { readableOrganizationIds } from '../../access/tree';
import * as certificates from '../certificates/service';
import * as licenses from '../licenses/service';

export type PendingKind = 'approval' | 'acknowledgement';

/**
 * The answer of GET /api/approve (approval) or GET /api/acknowledge: the bytes of its JSON, and the first instant
 * they differ by time alone (a license's days left).
 */
export async function pendingJson(
  db: Queryable, actor: Actor & { versions?: Versions }, kind: PendingKind, query: PendingQuery, now: Date,
): Promise<{ json: Buffer; changesAt: number }> {
  const organizations = await readableOrganizationIds(db, actor);
  const [certificatePage, licensePage] = await Promise.all([
    certificates.pendingPage(db, actor, organizations, kind, now, { offset: query.certificatesOffset, limit: query.limit, sort: query.certificatesSort }),
    licenses.pendingPage(db, actor, organizations, kind, now, { offset: query.licensesOffset, limit: query.limit, sort: query.licensesSort }),
  ]);
  const json = Buffer.concat([
    Buffer.from('{"certificates":'), certificatePage.json,
    Buffer.from(`,"certificates_total":${certificatePage.total},"licenses":`), licensePage.json,
    Buffer.from(`,"licenses_total":${licensePage.total}}`),
  ]);
  return { json, changesAt: Math.min(certificatePage.changesAt ?? Infinity, licensePage.changesAt ?? Infinity) };
}
