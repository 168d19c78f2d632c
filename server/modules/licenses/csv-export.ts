/**
 * The columns of every license CSV export (docs/decisions.md "CSV export"): the organization's and
 * the admin's lists, and the pending tasks' licenses (pending/export.ts, with service.ts
 * pendingLicenseBatches), so the files of one kind of record read alike. Approval, validity, days left and extension from licenseStatus at the
 * export's instant, as the lists show them.
 */
import type { CsvColumn } from '../../http/csv';
import { licenseStatus } from '../../../common/status';
import type { License } from '../../../common/schemas/license';

export type ExportedLicense = License & { status: ReturnType<typeof licenseStatus> };

/** A row as the CSV writes it: the license as the API shows it at `at` (service.ts toLicense), with its status. */
export function exportedLicense(license: License, at: Date): ExportedLicense {
  return { ...license, status: licenseStatus(license, at) };
}

export const LICENSE_CSV_COLUMNS: CsvColumn<ExportedLicense>[] = [
  { header: 'organization_id', value: (l) => l.organization_id },
  { header: 'organization_name', value: (l) => l.organization_name },
  { header: 'license_id', value: (l) => l.license_id },
  { header: 'license_name', value: (l) => l.license_name },
  { header: 'license_scope', value: (l) => l.license_scope },
  { header: 'approval', value: (l) => l.status.approval },
  { header: 'valid', value: (l) => l.status.valid },
  { header: 'expired', value: (l) => l.status.expired },
  { header: 'days_left', value: (l) => l.days_left },
  { header: 'extension', value: (l) => l.status.extension },
  { header: 'date_valid_from', value: (l) => l.date_valid_from },
  { header: 'days_valid', value: (l) => l.days_valid },
  { header: 'date_valid_until', value: (l) => l.date_valid_until },
  { header: 'time_zone', value: (l) => l.time_zone },
  { header: 'note', value: (l) => l.note },
  { header: 'date_approved', value: (l) => l.date_approved },
  { header: 'date_rejected', value: (l) => l.date_rejected },
  { header: 'date_expiry_acknowledged', value: (l) => l.date_expiry_acknowledged },
  { header: 'extended_by_license_id', value: (l) => l.extended_by?.license_id },
  { header: 'extended_by_license_name', value: (l) => l.extended_by?.license_name },
  { header: 'date_created', value: (l) => l.date_created },
];
