/**
 * Pending tasks (SPEC.md §7 GET /api/approve, GET /api/acknowledge): approvals and expiry
 * acknowledgements waiting in the organizations where the caller has an applying role, one page
 * of each list with its true total (docs/decisions.md "Pending tasks").
 */
import type { Actor } from '../../../common/policy';
import type { Pending, PendingQuery } from '../../../common/schemas/pending';
import type { Queryable } from '../../db/database';
import { readEpoch } from '../../db/access-epoch';
import { organizationsKey } from '../../db/count-cache';
import { readableOrganizationIds } from '../organizations/tree';
import { listPendingCertificates } from '../certificates/repository';
import { toSummary } from '../certificates/service';
import { listPendingLicenses } from '../licenses/repository';
import { toLicense } from '../licenses/service';
import { cachedPage } from './page-cache';
import { nextExpiry } from './repository';

export type PendingKind = 'approval' | 'acknowledgement';

export async function listPending(db: Queryable, actor: Actor & { epoch?: number }, kind: PendingKind, query: PendingQuery, now: Date): Promise<Pending> {
  // The epoch first: a page kept for it was read after it moved there.
  const [organizations, epoch] = await Promise.all([readableOrganizationIds(db, actor), readEpoch(db, 'data_epoch')]);
  const key = (list: string, offset: number) => `${kind} ${list} ${organizationsKey(organizations)} ${offset} ${query.limit}`;
  // Approvals do not read the clock; acknowledgements change when the next row expires.
  const until = (list: 'certificates' | 'licenses') => (kind === 'acknowledgement' ? () => nextExpiry(db, list, now) : undefined);
  const [certificates, licenses] = await Promise.all([
    cachedPage(db, epoch, key('certificates', query.certificatesOffset), now, async () => {
      const { rows, total } = await listPendingCertificates(db, organizations, kind, now, { offset: query.certificatesOffset, limit: query.limit });
      return { items: rows.map(toSummary), total };
    }, until('certificates')),
    cachedPage(db, epoch, key('licenses', query.licensesOffset), now, () =>
      listPendingLicenses(db, organizations, kind, now, { offset: query.licensesOffset, limit: query.limit }), until('licenses')),
  ]);
  return {
    certificates: certificates.items,
    certificates_total: certificates.total,
    // Days left and status read the clock: made from the kept rows on every call.
    licenses: licenses.rows.map((l) => toLicense(l, now)),
    licenses_total: licenses.total,
  };
}
