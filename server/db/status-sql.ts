/**
 * The statuses of `common/status.ts` as SQL conditions: one definition of each, for the lists'
 * filters, the pending tasks and their next change (docs/decisions.md "Statuses in SQL").
 * test/api/status-agreement.test.ts proves on both engines that each lets through exactly the rows
 * the function names, with dates at every boundary and a millisecond either side.
 *
 * Dates are `toISOString()` text in both dialects, so comparing them as text compares instants
 * (`at` is `now.toISOString()`). Each condition compares the bare columns, so indexes stay usable,
 * and the conditions of a pending list repeat the WHERE of its partial index (migration 0009) term
 * for term, so the planners match them.
 */
import { expressionBuilder, sql, type Expression, type SqlBool } from 'kysely';
import type { CertificateStatusFilter, LicenseStatusFilter, StatusGroup } from '../../common/status-filters';
import type { CertificatesTable, Database, LicensesTable } from './schema';

const eb = expressionBuilder<Database, never>();

/** Certificate conditions over the table or its alias `table` (certificateStatus). */
export function certificateSql(table: 'c' | 'certificates') {
  const col = (name: keyof CertificatesTable) => sql.ref<string | null>(`${table}.${name}`);
  const approved = () => eb.and([eb(col('date_approved'), 'is not', null), eb(col('date_revoked'), 'is', null)]);
  /** `expired`: at or after not-after. */
  const expired = (at: string) => eb(col('date_not_after'), '<=', at);
  return {
    /** `approval === 'NOT_APPROVED'`: neither approved nor revoked (a request; a pending approval). */
    notApproved: (): Expression<SqlBool> => eb.and([eb(col('date_approved'), 'is', null), eb(col('date_revoked'), 'is', null)]),
    /** `approval !== 'NOT_APPROVED'`: approved or revoked ("hide requests"). */
    decided: (): Expression<SqlBool> => eb.or([eb(col('date_approved'), 'is not', null), eb(col('date_revoked'), 'is not', null)]),
    /** `can_revoke`: not yet revoked (bulk revoke's rows). */
    notRevoked: (): Expression<SqlBool> => eb(col('date_revoked'), 'is', null),
    /** `!expired` ("hide expired"). */
    notExpired: (at: string): Expression<SqlBool> => eb(col('date_not_after'), '>', at),
    /** `!valid`: outside [not-before, not-after) ("hide valid"). */
    notValid: (at: string): Expression<SqlBool> => eb.or([eb(col('date_not_before'), '>', at), eb(col('date_not_after'), '<=', at)]),
    /** `pending_acknowledgement`: approved, not revoked, not acknowledged, expired. */
    pendingAcknowledgement: (at: string): Expression<SqlBool> => eb.and([approved(), eb(col('date_expiry_acknowledged'), 'is', null), expired(at)]),
    /** `certificateHasStatus` (common/status-filters.ts): the status chip. */
    has: (filter: CertificateStatusFilter, at: string): Expression<SqlBool> => {
      switch (filter) {
        case 'approved': return approved();
        case 'not_approved': return eb.and([eb(col('date_approved'), 'is', null), eb(col('date_revoked'), 'is', null)]);
        case 'revoked': return eb(col('date_revoked'), 'is not', null);
        case 'valid': return eb.and([eb(col('date_not_before'), '<=', at), eb(col('date_not_after'), '>', at)]);
        case 'expired': return expired(at);
        case 'acknowledged': return eb(col('date_expiry_acknowledged'), 'is not', null);
      }
    },
    /** Not yet expired, and expiring at or before `until` ("expiring within N days"). */
    expiringBy: (at: string, until: string): Expression<SqlBool> => eb.and([eb(col('date_not_after'), '>', at), eb(col('date_not_after'), '<=', until)]),
    /** The end of validity at or after `from`, and before `before` (the date range on Until). */
    endsFrom: (from: string): Expression<SqlBool> => eb(col('date_not_after'), '>=', from),
    endsBefore: (before: string): Expression<SqlBool> => eb(col('date_not_after'), '<', before),
  };
}

/** License conditions over the table or its alias `table` (licenseStatus; a rejected successor extends nothing). */
export function licenseSql(table: 'l' | 'licenses') {
  const col = (name: keyof LicensesTable) => sql.ref<string | null>(`${table}.${name}`);
  return {
    /** `approval === 'NOT_APPROVED'`, the Not approved badge: neither approved nor rejected (a pending approval). */
    notApproved: (): Expression<SqlBool> => eb.and([eb(col('date_approved'), 'is', null), eb(col('date_rejected'), 'is', null)]),
    /** No Not approved badge: approved or rejected ("hide requests"). */
    decided: (): Expression<SqlBool> => eb.or([eb(col('date_approved'), 'is not', null), eb(col('date_rejected'), 'is not', null)]),
    /**
     * `!expired` (`days_left` ≥ 0): before valid-until ("hide expired"). SPEC.md's Expired is the
     * window's: a rejected request past its window is hidden too, though its badge shows only Rejected.
     */
    notExpired: (at: string): Expression<SqlBool> => eb(col('date_valid_until'), '>', at),
    /**
     * No Valid badge: not approved, or outside [valid-from, valid-until) ("hide valid"). Approve and
     * reject both need a Not-approved license, so an approved one is never rejected.
     */
    notValid: (at: string): Expression<SqlBool> =>
      eb.or([eb(col('date_approved'), 'is', null), eb(col('date_valid_from'), '>', at), eb(col('date_valid_until'), '<=', at)]),
    /**
     * `pending_acknowledgement`: approved, not acknowledged, expired, and no successor or a rejected
     * one. The successor is a scalar subquery, read only where there is one: PostgreSQL answered an
     * EXISTS here by hashing every rejected license of the table first.
     */
    pendingAcknowledgement: (at: string): Expression<SqlBool> =>
      eb.and([
        eb(col('date_approved'), 'is not', null),
        eb(col('date_expiry_acknowledged'), 'is', null),
        eb(col('date_valid_until'), '<=', at),
        eb.or([
          eb(col('extended_by_license_id'), 'is', null),
          eb(eb.selectFrom('licenses as s').select('s.date_rejected').where('s.license_id', '=', col('extended_by_license_id')), 'is not', null),
        ]),
      ]),
    /** `licenseHasStatus` (common/status-filters.ts): the license shows this badge (licenseStatus). */
    has: (filter: LicenseStatusFilter, at: string): Expression<SqlBool> => {
      const approvedBy = eb(col('date_approved'), 'is not', null);
      // The successor's decision, as scalar subqueries read only where there is one (see
      // pendingAcknowledgement); a rejected successor extends nothing (the service clears its id too).
      const successor = (column: 's.date_approved' | 's.date_rejected') =>
        eb.selectFrom('licenses as s').select(column).where('s.license_id', '=', col('extended_by_license_id'));
      const renewed = eb(col('extended_by_license_id'), 'is not', null);
      switch (filter) {
        case 'not_approved': return eb.and([eb(col('date_approved'), 'is', null), eb(col('date_rejected'), 'is', null)]);
        case 'rejected': return eb(col('date_rejected'), 'is not', null);
        // Approved ahead of its start: neither valid nor expired.
        case 'approved': return eb.and([approvedBy, eb(col('date_valid_from'), '>', at), eb(col('date_valid_until'), '>', at)]);
        case 'valid': return eb.and([approvedBy, eb(col('date_valid_from'), '<=', at), eb(col('date_valid_until'), '>', at)]);
        // The badge is not shown beside Rejected.
        case 'expired': return eb.and([eb(col('date_valid_until'), '<=', at), eb(col('date_rejected'), 'is', null)]);
        case 'extension_requested': return eb.and([renewed, eb(successor('s.date_approved'), 'is', null), eb(successor('s.date_rejected'), 'is', null)]);
        case 'extended': return eb.and([renewed, eb(successor('s.date_approved'), 'is not', null)]);
        case 'acknowledged': return eb(col('date_expiry_acknowledged'), 'is not', null);
      }
    },
    /** Not yet expired, and expiring at or before `until` ("expiring within N days"). */
    expiringBy: (at: string, until: string): Expression<SqlBool> => eb.and([eb(col('date_valid_until'), '>', at), eb(col('date_valid_until'), '<=', until)]),
    /** The end of validity at or after `from`, and before `before` (the date range on Until). */
    endsFrom: (from: string): Expression<SqlBool> => eb(col('date_valid_until'), '>=', from),
    endsBefore: (before: string): Expression<SqlBool> => eb(col('date_valid_until'), '<', before),
  };
}

/** `passesStatuses` (common/status-filters.ts) in SQL: in every group with a chosen status, one of them. */
export function withStatuses<S extends string>(groups: readonly StatusGroup<S>[], chosen: readonly S[], has: (status: S) => Expression<SqlBool>): Expression<SqlBool> {
  const terms = groups
    .map((group) => group.statuses.filter((s) => chosen.includes(s)))
    .filter((mine) => mine.length > 0)
    .map((mine) => eb.or(mine.map(has)));
  return eb.and(terms);
}
