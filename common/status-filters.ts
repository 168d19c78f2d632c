/**
 * The status chips of the certificate and license lists (issue 12 item 2) and the "expiring within
 * N days" presets: which statuses a list can be narrowed to, how they group, and what each means in
 * terms of common/status.ts. The server's SQL (server/db/status-sql.ts) is proved against `has…`
 * here by test/api/status-agreement.test.ts. Plain constants, without zod: the web app's first
 * screens import them (docs/decisions.md "Status filters").
 *
 * Chips of one group are alternatives (Approved or Not approved); groups narrow each other (Approved
 * and Expired: the approved ones that have expired), as facets do in most list tools.
 */
import type { certificateStatus, LicenseBadge, LicenseStatus } from './status';

export const CERTIFICATE_STATUS_FILTERS = ['approved', 'not_approved', 'revoked', 'valid', 'expired', 'acknowledged'] as const;
export type CertificateStatusFilter = (typeof CERTIFICATE_STATUS_FILTERS)[number];

export const LICENSE_STATUS_FILTERS = ['not_approved', 'approved', 'valid', 'rejected', 'expired', 'extension_requested', 'extended', 'acknowledged'] as const;
export type LicenseStatusFilter = (typeof LICENSE_STATUS_FILTERS)[number];

export interface StatusGroup<S extends string> {
  label: string;
  statuses: readonly S[];
}

export const CERTIFICATE_STATUS_GROUPS: readonly StatusGroup<CertificateStatusFilter>[] = [
  { label: 'Approval', statuses: ['approved', 'not_approved', 'revoked'] },
  { label: 'Validity', statuses: ['valid', 'expired'] },
  { label: 'Expiry', statuses: ['acknowledged'] },
];

export const LICENSE_STATUS_GROUPS: readonly StatusGroup<LicenseStatusFilter>[] = [
  { label: 'Status', statuses: ['not_approved', 'approved', 'valid', 'rejected', 'expired'] },
  { label: 'Renewal', statuses: ['extension_requested', 'extended'] },
  { label: 'Expiry', statuses: ['acknowledged'] },
];

/** The chips' words: the badges' (SPEC.md §2). */
export const STATUS_FILTER_LABELS: Record<CertificateStatusFilter | LicenseStatusFilter, string> = {
  approved: 'Approved',
  not_approved: 'Not approved',
  revoked: 'Revoked',
  valid: 'Valid',
  expired: 'Expired',
  acknowledged: 'Expiry acknowledged',
  rejected: 'Rejected',
  extension_requested: 'Extension requested',
  extended: 'Extended',
};

/** The statuses that read the clock: a list narrowed by one changes as time passes. */
export const CERTIFICATE_TIME_STATUSES: readonly CertificateStatusFilter[] = ['valid', 'expired'];
export const LICENSE_TIME_STATUSES: readonly LicenseStatusFilter[] = ['approved', 'valid', 'expired'];

/** Does a certificate in this state carry this status (its badge)? */
export function certificateHasStatus(s: ReturnType<typeof certificateStatus>, filter: CertificateStatusFilter): boolean {
  switch (filter) {
    case 'approved': return s.approval === 'APPROVED';
    case 'not_approved': return s.approval === 'NOT_APPROVED';
    case 'revoked': return s.approval === 'REVOKED';
    case 'valid': return s.valid;
    case 'expired': return s.expired;
    case 'acknowledged': return s.expiry_acknowledged;
  }
}

const LICENSE_BADGE: Record<LicenseStatusFilter, LicenseBadge> = {
  not_approved: 'NOT_APPROVED',
  approved: 'APPROVED',
  valid: 'VALID',
  rejected: 'REJECTED',
  expired: 'EXPIRED',
  extension_requested: 'EXTENSION_REQUESTED',
  extended: 'EXTENDED',
  acknowledged: 'EXPIRY_ACKNOWLEDGED',
};

/** Does a license in this state show this badge? */
export const licenseHasStatus = (s: LicenseStatus, filter: LicenseStatusFilter): boolean => s.badges.includes(LICENSE_BADGE[filter]);

/** Does a row pass the chosen chips: in every group with a chosen chip, one of them? */
export function passesStatuses<S extends string>(groups: readonly StatusGroup<S>[], chosen: readonly S[], has: (status: S) => boolean): boolean {
  return groups.every((group) => {
    const mine = group.statuses.filter((s) => chosen.includes(s));
    return mine.length === 0 || mine.some(has);
  });
}

/** The "expiring within" presets of the lists and the overview, in days. */
export const EXPIRING_PRESETS = [7, 30, 90] as const;

/** The most days "expiring within" takes: a license's longest window (days_valid ≤ 3650). */
export const EXPIRING_MAX_DAYS = 3650;
