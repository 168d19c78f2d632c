/**
 * The columns of every certificate CSV export (docs/decisions.md "CSV export"): the organization's,
 * the admin's and a member's lists, and the pending tasks' certificates (pending/export.ts, which
 * reads them here: a module asks another's service, not its repository), so the files of one kind
 * of record read alike. Statuses as the lists' badges at the export's instant.
 */
import type { Queryable } from '../../db/database';
import { keyedBatches, type CsvColumn } from '../../http/csv';
import { certificateStatus } from '../../../common/status';
import type { PendingCertificateSort } from '../../../common/schemas/pending';
import { certificatesByKey, listPendingCertificateKeys, type CertificateExportRow } from './repository';

export function certificateCsvColumns(at: Date): CsvColumn<CertificateExportRow>[] {
  // Three columns read the status: worked out once a row (the cells are written a row at a time, in order), not
  // three times: parsing its dates was 15 % of an export's time.
  let last: { row: CertificateExportRow; status: ReturnType<typeof certificateStatus> } | undefined;
  const status = (c: CertificateExportRow) => (last?.row === c ? last : (last = { row: c, status: certificateStatus(c, at) })).status;
  return [
    { header: 'organization_id', value: (c) => c.organization_id },
    { header: 'organization_name', value: (c) => c.organization_name },
    { header: 'distinguished_name', value: (c) => c.distinguished_name },
    { header: 'approval', value: (c) => status(c).approval },
    { header: 'valid', value: (c) => status(c).valid },
    { header: 'expired', value: (c) => status(c).expired },
    { header: 'description', value: (c) => c.description },
    { header: 'owner_member_id', value: (c) => c.owner_member_id },
    { header: 'owner_name', value: (c) => c.owner_name },
    { header: 'date_not_before', value: (c) => c.date_not_before },
    { header: 'date_not_after', value: (c) => c.date_not_after },
    { header: 'date_approved', value: (c) => c.date_approved },
    { header: 'date_revoked', value: (c) => c.date_revoked },
    { header: 'date_expiry_acknowledged', value: (c) => c.date_expiry_acknowledged },
    { header: 'date_created', value: (c) => c.date_created },
    // Added last (issue 34), so files read by position keep their columns.
    { header: 'fingerprint_sha256', value: (c) => c.fingerprint_sha256 },
  ];
}

/** The rows of a pending list at `at`, a thousand at a time, in the JSON list's own order (by key: http/csv.ts). */
export function pendingCertificateBatches(db: Queryable, organizations: 'all' | string[], kind: 'approval' | 'acknowledgement', at: Date, sort?: PendingCertificateSort) {
  return keyedBatches(() => listPendingCertificateKeys(db, organizations, kind, at, sort), (keys) => certificatesByKey(db, keys), (c) => c.distinguished_name);
}
