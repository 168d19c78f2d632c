/**
 * Statuses computed from dates and the current time when read (DECISIONS.md "Time").
 * `now` is always passed in, so tests move the clock instead of waiting.
 */
import { DAY } from './dates';

type When = string | number | Date | null | undefined;
const ms = (d: When) => (d == null ? null : new Date(d).getTime());

/** Now is at or after `from` and strictly before `until` (SPEC.md §4). */
function isWithin(from: When, until: When, now: Date): boolean {
  const f = ms(from);
  const u = ms(until);
  return f != null && u != null && now.getTime() >= f && now.getTime() < u;
}

export interface CertificateDates {
  date_not_before: When;
  date_not_after: When;
  date_approved: When;
  date_revoked: When;
  date_expiry_acknowledged: When;
}

export type CertificateApproval = 'APPROVED' | 'REVOKED' | 'NOT_APPROVED';

function certificateApproval(c: CertificateDates): CertificateApproval {
  if (c.date_revoked) return 'REVOKED';
  return c.date_approved ? 'APPROVED' : 'NOT_APPROVED';
}

export function certificateStatus(c: CertificateDates, now: Date) {
  const approval = certificateApproval(c);
  const notAfter = ms(c.date_not_after);
  const expired = notAfter != null && now.getTime() >= notAfter;
  return {
    approval,
    valid: isWithin(c.date_not_before, c.date_not_after, now),
    expired,
    expiry_acknowledged: !!c.date_expiry_acknowledged,
    /** Which actions the state allows (DECISIONS.md "Certificates"); roles are policy.ts's business. */
    can_approve: approval === 'NOT_APPROVED',
    can_revoke: approval !== 'REVOKED',
    can_remove: approval === 'REVOKED',
    can_acknowledge_expiry: approval === 'APPROVED' && !c.date_expiry_acknowledged,
    /** Waiting for someone to acknowledge: approved, not revoked, expired, not acknowledged. */
    pending_acknowledgement: approval === 'APPROVED' && expired && !c.date_expiry_acknowledged,
  };
}

/**
 * Whole days to `until` (exclusive): at least 1 while it has not passed, negative once it has.
 * The last partial day counts as 1 so that "in 1 day" shows until the very end.
 */
export function daysLeft(until: When, now: Date): number {
  const u = ms(until);
  if (u == null) return 0;
  const diff = (u - now.getTime()) / DAY;
  return diff > 0 ? Math.ceil(diff) : Math.floor(diff) || -1;
}

/**
 * The first instant after `now` at which `daysLeft(until, …)` answers differently: it steps where
 * the time left (or passed) is a whole number of days. Infinity without `until`.
 */
export function daysLeftChangesAt(until: When, now: Date): number {
  const u = ms(until);
  if (u == null) return Infinity;
  const diff = u - now.getTime();
  // Left: the count steps down when the time left reaches the next lower whole day (at 0, to -1).
  // Passed (p): -1 up to one whole day, then one less 1 ms after each further whole day.
  if (diff > 0) return now.getTime() + (diff % DAY || DAY);
  const passed = -diff;
  return now.getTime() + Math.max(1, Math.ceil(passed / DAY)) * DAY + 1 - passed;
}

export interface LicenseDates {
  date_valid_from: When;
  date_valid_until: When;
  date_approved: When;
  date_rejected: When;
  date_expiry_acknowledged: When;
  /** The successor made by a renewal. A rejected successor extends nothing: pass null then (the API does). */
  extended_by?: { date_approved: When } | null;
}

type LicenseApproval = 'APPROVED' | 'REJECTED' | 'NOT_APPROVED';

/** The badges of SPEC.md §2 "/licenses", in the order the screens show them. */
export type LicenseBadge =
  | 'NOT_APPROVED' | 'APPROVED' | 'VALID' | 'REJECTED' | 'EXPIRED'
  | 'EXTENDED' | 'EXTENSION_REQUESTED' | 'EXPIRY_ACKNOWLEDGED';

/**
 * How many days before `date_valid_until` an approved license may already be renewed, so that
 * its successor can be approved before the old one runs out (docs/decisions.md "Licenses").
 */
export const RENEWAL_WINDOW_DAYS = 7;

/** The earliest of these instants strictly after `now`, or null when none is. */
function nextInstant(instants: readonly When[], now: Date): Date | null {
  let next: number | null = null;
  for (const instant of instants) {
    const t = ms(instant);
    if (t != null && !Number.isNaN(t) && t > now.getTime() && (next == null || t < next)) next = t;
  }
  return next == null ? null : new Date(next);
}

/** The earliest of these (a list's rows), or null. */
export function earliest(dates: readonly (Date | null)[]): Date | null {
  let first: Date | null = null;
  for (const date of dates) if (date && (!first || date.getTime() < first.getTime())) first = date;
  return first;
}

/** The next instant after `now` at which `certificateStatus` changes: its not-before, then its not-after. */
export function nextCertificateChange(c: Pick<CertificateDates, 'date_not_before' | 'date_not_after'>, now: Date): Date | null {
  return nextInstant([c.date_not_before, c.date_not_after], now);
}

/**
 * The next instant after `now` at which `licenseStatus` changes: its valid-from, its valid-until,
 * or before that the next whole-day step of `days_left` (which also opens the renewal window).
 */
export function nextLicenseChange(l: Pick<LicenseDates, 'date_valid_from' | 'date_valid_until'>, now: Date): Date | null {
  const until = ms(l.date_valid_until);
  const step = until != null && until > now.getTime() ? until - (Math.ceil((until - now.getTime()) / DAY) - 1) * DAY : null;
  return nextInstant([l.date_valid_from, l.date_valid_until, step], now);
}

/** setTimeout's longest delay (2^31 − 1 ms, about 24.8 days); a longer one would fire at once. */
export const MAX_TIMER_DELAY_MS = 2_147_483_647;

/**
 * How long a timer waits to show the change at `next`: 0 when it is due, at most
 * MAX_TIMER_DELAY_MS (the timer then fires early and is set again from there).
 */
export function delayUntil(next: Date, now: Date): number {
  return Math.min(Math.max(next.getTime() - now.getTime(), 0), MAX_TIMER_DELAY_MS);
}

/** Start of the UTC day of `now`: the server's "today" (renewals, the request default). */
export function startOfUtcDay(now: Date): Date {
  return new Date(Math.floor(now.getTime() / DAY) * DAY);
}

/**
 * License status from its dates and `now` (DECISIONS.md "Licenses"). Works on instants only,
 * so the machine's time zone never changes the answer.
 */
export function licenseStatus(l: LicenseDates, now: Date) {
  const approval: LicenseApproval = l.date_rejected ? 'REJECTED' : l.date_approved ? 'APPROVED' : 'NOT_APPROVED';
  const days_left = daysLeft(l.date_valid_until, now);
  const expired = days_left < 0;
  const started = ms(l.date_valid_from) != null && now.getTime() >= ms(l.date_valid_from)!;
  const valid = approval === 'APPROVED' && isWithin(l.date_valid_from, l.date_valid_until, now);
  const extension = l.extended_by ? (l.extended_by.date_approved ? 'EXTENDED' : 'EXTENSION_REQUESTED') : null;
  const acknowledged = !!l.date_expiry_acknowledged;
  const approved = approval === 'APPROVED';

  const badges: LicenseBadge[] = [];
  if (approval === 'NOT_APPROVED') badges.push('NOT_APPROVED');
  if (approval === 'REJECTED') badges.push('REJECTED');
  // SPEC.md §4: "Approved" only while neither valid nor expired (approved ahead of its start).
  if (approved && !valid && !expired) badges.push('APPROVED');
  if (valid) badges.push('VALID');
  // A rejected request is final; that its window passed too says nothing more.
  if (expired && approval !== 'REJECTED') badges.push('EXPIRED');
  if (extension) badges.push(extension);
  if (acknowledged) badges.push('EXPIRY_ACKNOWLEDGED');

  const open = approved && !extension && !acknowledged;
  return {
    approval,
    badges,
    days_left,
    valid,
    expired,
    extension,
    expiry_acknowledged: acknowledged,
    /** Which actions the state allows; roles are policy.ts's business. */
    can_edit: approval === 'NOT_APPROVED',
    can_approve: approval === 'NOT_APPROVED',
    can_reject: approval === 'NOT_APPROVED',
    can_renew: open && started && days_left <= RENEWAL_WINDOW_DAYS,
    can_acknowledge_expiry: open && expired,
    has_license_key: approved,
    /** Waiting for a Renew or a 'No renew': approved, expired, no successor, not acknowledged. */
    pending_acknowledgement: open && expired,
  };
}

export type LicenseStatus = ReturnType<typeof licenseStatus>;
