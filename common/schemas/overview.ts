/**
 * The overview of one organization (GET /api/organizations/{id}/overview) and of the organizations
 * operator staff read (GET /api/admin/overview): what needs attention, in counts (issue 12 item 6,
 * docs/decisions.md "Overview"). Every count is of rows, and a row is counted under each badge it
 * shows, as the lists show them at the answer's instant (`date_generated`).
 */
import { z } from 'zod';
import { auditRecordSchema } from './audit';
import { EXPIRING_PRESETS } from '../status-filters';

const count = (what: string) => z.number().int().min(0).describe(what);

/** How many months the expiry chart covers: the current one and the next eleven. */
export const EXPIRY_MONTHS = 12;

const certificateCounts = z.object({
  total: count('Every certificate.'),
  approved: count('Approved (and not revoked).'),
  not_approved: count('Neither approved nor revoked: requests.'),
  revoked: count('Revoked.'),
  valid: count('Inside the validity window now (not-before ≤ now < not-after).'),
  expired: count('At or after not-after.'),
  expiry_acknowledged: count('With the expiry acknowledged.'),
});

const licenseCounts = z.object({
  total: count('Every license.'),
  not_approved: count('Neither approved nor rejected: requests.'),
  approved: count('Approved, not yet in force (the Approved badge).'),
  valid: count('Approved and in force now (the Valid badge).'),
  rejected: count('Rejected.'),
  expired: count('The window has passed, not rejected (the Expired badge).'),
  extension_requested: count('A renewal waits for approval (the Extension requested badge).'),
  expiry_acknowledged: count('With the expiry acknowledged (No renew).'),
});

const expiring = z.object({
  days: z.number().int().describe('The window: from now (exclusive) to now plus this many days (inclusive).'),
  certificates: count('Approved, not revoked certificates whose not-after falls in the window.'),
  licenses: count('Licenses in force (the Valid badge) whose valid-until falls in the window.'),
});

const month = z.object({
  month: z.string().describe('The month, YYYY-MM (UTC).'),
  certificates: count('Approved, not revoked certificates whose not-after falls in the month, after now.'),
  licenses: count('Approved, not rejected licenses whose valid-until falls in the month, after now.'),
});

const journalEntry = auditRecordSchema.extend({
  organization_id: z.string(),
  organization_name: z.string(),
});
export type OverviewJournalEntry = z.infer<typeof journalEntry>;

export const overviewSchema = z.object({
  date_generated: z.string().describe('The instant the counts were taken (ISO 8601).'),
  organizations: count('How many organizations the overview covers.'),
  certificates: certificateCounts,
  licenses: licenseCounts,
  expiring: z.array(expiring).describe(`One entry per window: ${EXPIRING_PRESETS.join(', ')} days.`),
  pending: z.object({
    certificate_approvals: count('Certificates waiting for approval (the pending tasks).'),
    license_approvals: count('Licenses waiting for approval.'),
    certificate_acknowledgements: count('Expired certificates whose expiry nobody has acknowledged.'),
    license_acknowledgements: count('Expired licenses neither renewed nor acknowledged.'),
  }),
  expiries_by_month: z.array(month).describe(`The current month (UTC) and the next ${EXPIRY_MONTHS - 1}.`),
  journal: z.object({
    scope: z.enum(['organization', 'organizations', 'own']).describe(
      'organization: the latest records of this organization; organizations: of every organization covered; own: of the caller\'s own organization only (too many organizations to merge).',
    ),
    records: z.array(journalEntry).describe('The latest records, newest first (at most 10).'),
  }),
});
export type Overview = z.infer<typeof overviewSchema>;
export type OverviewCertificateCounts = z.infer<typeof certificateCounts>;
export type OverviewLicenseCounts = z.infer<typeof licenseCounts>;
