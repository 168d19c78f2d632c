/**
 * Pending tasks (SPEC.md §7 GET /api/approve, GET /api/acknowledge): approvals and expiry
 * acknowledgements waiting in the organizations where the caller has an applying role, one page
 * of each list with its true total (docs/decisions.md "Pending tasks").
 */
import type { Actor } from '../../../common/policy';
import type { Pending, PendingQuery } from '../../../common/schemas/pending';
import type { Queryable } from '../../db/database';
import { readableOrganizationIds } from '../organizations/tree';
import { listPendingCertificates } from '../certificates/repository';
import { toSummary } from '../certificates/service';
import { listPendingLicenses } from '../licenses/repository';
import { toLicense } from '../licenses/service';

export type PendingKind = 'approval' | 'acknowledgement';

export async function listPending(db: Queryable, actor: Actor & { epoch?: number }, kind: PendingKind, query: PendingQuery, now: Date): Promise<Pending> {
  const organizations = await readableOrganizationIds(db, actor);
  const [certificates, licenses] = await Promise.all([
    listPendingCertificates(db, organizations, kind, now, { offset: query.certificatesOffset, limit: query.limit }),
    listPendingLicenses(db, organizations, kind, now, { offset: query.licensesOffset, limit: query.limit }),
  ]);
  return {
    certificates: certificates.rows.map(toSummary),
    certificates_total: certificates.total,
    licenses: licenses.rows.map((l) => toLicense(l, now)),
    licenses_total: licenses.total,
  };
}
