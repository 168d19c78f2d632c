import { describe, expect, it } from 'vitest';
import {
  formatDate, formatDateMinute, formatDateTime, toLocalInput, formatDaysLeft, formatDuration, formatMachineDate, formatShortDate,
  parseDisplayDate, parseMachineDate,
} from './dates';
import { daysLeft, certificateStatus } from './status';

describe('date formats (SPEC.md §9)', () => {
  const d = new Date(2024, 2, 5, 14, 3, 9);
  it('formats display, date-time, short and machine forms in local time', () => {
    expect(formatDate(d)).toBe('05-MAR-2024');
    expect(formatDateTime(d)).toBe('05-MAR-2024 14:03:09');
    expect(formatDateMinute(d)).toBe('05-MAR-2024 14:03');
    expect(toLocalInput(d)).toBe('2024-03-05T14:03');
    expect(formatShortDate(d)).toBe('5-MAR-2024');
    expect(formatMachineDate(d)).toBe('2024-03-05');
    expect(formatDate(new Date(2023, 11, 31))).toBe('31-DEC-2023');
  });
  it('parses machine and display text to local midnight, and refuses impossible dates', () => {
    expect(parseMachineDate('2024-03-05')).toEqual(new Date(2024, 2, 5));
    expect(parseDisplayDate('05-MAR-2024')).toEqual(new Date(2024, 2, 5));
    expect(parseDisplayDate('5-mar-2024')).toEqual(new Date(2024, 2, 5));
    expect(parseDisplayDate('29-FEB-2024')).toEqual(new Date(2024, 1, 29));
    expect(parseDisplayDate('29-FEB-2023')).toBeNull();
    expect(parseDisplayDate('05-XYZ-2024')).toBeNull();
    expect(parseMachineDate('2024-13-01')).toBeNull();
    expect(parseMachineDate('yesterday')).toBeNull();
  });
  it('says relative time in words', () => {
    expect(formatDuration(30_000)).toBe('less than a minute');
    expect(formatDuration(60_000)).toBe('1 minute');
    expect(formatDuration(5 * 60_000)).toBe('5 minutes');
    expect(formatDuration(2 * 3_600_000 + 5 * 60_000)).toBe('2 hours and 5 minutes');
    expect(formatDuration(3_600_000)).toBe('1 hour');
    expect(formatDuration(3 * 86_400_000 + 1000)).toBe('3 days');
  });
  it('shows days left as a dash, in 1 day, or in N days', () => {
    expect(formatDaysLeft(0)).toBe('-');
    expect(formatDaysLeft(-3)).toBe('-');
    expect(formatDaysLeft(1)).toBe('in 1 day');
    expect(formatDaysLeft(12)).toBe('in 12 days');
  });
});

describe('statuses at chosen instants', () => {
  const until = '2026-04-01T00:00:00.000Z';
  it('counts whole days left, 1 on the last day, negative from the exclusive end on', () => {
    expect(daysLeft(until, new Date('2026-03-01T00:00:00Z'))).toBe(31);
    expect(daysLeft(until, new Date('2026-03-31T23:59:59Z'))).toBe(1);
    expect(daysLeft(until, new Date(until))).toBe(-1);
    expect(daysLeft(until, new Date('2026-04-03T12:00:00Z'))).toBe(-3);
  });
  it('is valid from not-before (inclusive) to not-after (exclusive)', () => {
    const cert = {
      date_not_before: '2026-01-01T00:00:00Z', date_not_after: until,
      date_approved: '2026-01-02T00:00:00Z', date_revoked: null, date_expiry_acknowledged: null,
    };
    expect(certificateStatus(cert, new Date('2025-12-31T23:59:59Z')).valid).toBe(false);
    expect(certificateStatus(cert, new Date('2026-01-01T00:00:00Z')).valid).toBe(true);
    expect(certificateStatus(cert, new Date(until)).valid).toBe(false);
    expect(certificateStatus(cert, new Date(until)).pending_acknowledgement).toBe(true);
    expect(certificateStatus({ ...cert, date_revoked: until }, new Date(until))).toMatchObject({ approval: 'REVOKED', can_remove: true, can_revoke: false, pending_acknowledgement: false });
    expect(certificateStatus({ ...cert, date_approved: null }, new Date(until))).toMatchObject({ approval: 'NOT_APPROVED', can_approve: true, can_acknowledge_expiry: false });
  });
});
