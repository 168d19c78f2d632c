/**
 * The pending lists as CSV (docs/decisions.md "CSV export"): each of the four lists of GET
 * /api/approve and GET /api/acknowledge on its own, every row in the list's order (its sort, or
 * the usual one), read a thousand at a time through the list's own query, with the columns of the
 * certificate and license exports. Authorized as the lists: the organizations where the caller has
 * a role. Journaled in the caller's organization's journal, as the other admin lists.
 */
import type { Db } from '../../db/database';
import type { RequestActor } from '../../auth/actor';
import type { PendingCertificateSort, PendingLicenseSort } from '../../../common/schemas/pending';
import { readableOrganizationIds } from '../../access/tree';
import { csvDisposition, csvStream, journalExport } from '../../http/csv';
import { certificateCsvColumns, pendingCertificateBatches } from '../certificates/csv-export';
import { LICENSE_CSV_COLUMNS } from '../licenses/csv-export';
import { pendingLicenseBatches } from '../licenses/service';
import type { PendingKind } from './service';

/** The list's name in the journal and the file: "pending certificate approvals", "expired licenses". */
const LIST_NAMES = {
  approval: { certificates: 'pending certificate approvals', licenses: 'pending license approvals' },
  acknowledgement: { certificates: 'expired certificates to acknowledge', licenses: 'expired licenses to acknowledge' },
} as const;
const FILE_NAMES = {
  approval: { certificates: 'pending-certificate-approvals', licenses: 'pending-license-approvals' },
  acknowledgement: { certificates: 'pending-certificate-acknowledgements', licenses: 'pending-license-acknowledgements' },
} as const;

export async function exportPendingCertificates(db: Db, actor: RequestActor, kind: PendingKind, query: { sort?: PendingCertificateSort }, now: () => Date) {
  const at = now();
  const organizations = await readableOrganizationIds(db, actor);
  const batches = pendingCertificateBatches(db, organizations, kind, at, query.sort);
  const onEnd = journalExport(db, actor, actor.organization_id, `the ${LIST_NAMES[kind].certificates}`, query, now);
  return { body: csvStream(certificateCsvColumns(at), batches, onEnd), disposition: csvDisposition(FILE_NAMES[kind].certificates, 'all', at) };
}

export async function exportPendingLicenses(db: Db, actor: RequestActor, kind: PendingKind, query: { sort?: PendingLicenseSort }, now: () => Date) {
  const at = now();
  const organizations = await readableOrganizationIds(db, actor);
  const batches = pendingLicenseBatches(db, organizations, kind, at, query.sort);
  const onEnd = journalExport(db, actor, actor.organization_id, `the ${LIST_NAMES[kind].licenses}`, query, now);
  return { body: csvStream(LICENSE_CSV_COLUMNS, batches, onEnd), disposition: csvDisposition(FILE_NAMES[kind].licenses, 'all', at) };
}
