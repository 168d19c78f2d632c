import { describe, expect, it } from 'vitest';
import { certificateStatus, daysLeft, daysLeftChangesAt, delayUntil, earliest, licenseStatus, MAX_TIMER_DELAY_MS, nextCertificateChange, nextLicenseChange, RENEWAL_WINDOW_DAYS, startOfUtcDay, type CertificateDates, type LicenseDates } from './status';
import { licenseValidUntil } from './zones';

// Every case is written as instants (UTC). The functions must answer the same on a machine in
// Europe/Berlin, in Pacific/Kiritimati (UTC+14) or in UTC; `npm run test:unit` runs under any TZ.
const at = (iso: string) => new Date(iso);
const HOUR = 3_600_000;

function license(overrides: Partial<LicenseDates> = {}): LicenseDates {
  return {
    date_valid_from: '2026-03-01T00:00:00.000Z',
    date_valid_until: '2026-03-21T00:00:00.000Z',
    date_approved: null,
    date_rejected: null,
    date_expiry_acknowledged: null,
    extended_by: null,
    ...overrides,
  };
}
const approved = (overrides: Partial<LicenseDates> = {}) => license({ date_approved: '2026-02-28T12:00:00.000Z', ...overrides });

describe('licenseValidUntil without a zone (UTC) and startOfUtcDay', () => {
  it('adds whole days of 24 hours, across month ends and leap days', () => {
    expect(licenseValidUntil('2026-01-31T00:00:00.000Z', 30)).toBe('2026-03-02T00:00:00.000Z');
    expect(licenseValidUntil('2028-01-31T00:00:00.000Z', 30)).toBe('2028-03-01T00:00:00.000Z');
    expect(licenseValidUntil('2026-12-31T00:00:00.000Z', 1)).toBe('2027-01-01T00:00:00.000Z');
    expect(licenseValidUntil('2026-03-01T00:00:00.000Z', 3650)).toBe('2036-02-27T00:00:00.000Z');
  });

  it('keeps a Berlin local midnight sent without its zone as the same instant plus 24 h per day (zones.test.ts counts in the zone)', () => {
    // 29-MAR-2026 00:00 in Berlin (CET, +01:00) is 28-MAR 23:00Z; Berlin moves to +02:00 that night.
    const until = licenseValidUntil('2026-03-28T23:00:00.000Z', 2);
    expect(until).toBe('2026-03-30T23:00:00.000Z');
    // That is 31-MAR 01:00 in Berlin: still the 31st, the day the exclusive end falls on.
    expect(new Date(until).getTime() - new Date('2026-03-28T23:00:00.000Z').getTime()).toBe(48 * HOUR);
  });

  it('takes the UTC day, whatever the local zone says', () => {
    expect(startOfUtcDay(at('2026-03-29T00:30:00+02:00')).toISOString()).toBe('2026-03-28T00:00:00.000Z');
    expect(startOfUtcDay(at('2026-10-25T23:59:59.999Z')).toISOString()).toBe('2026-10-25T00:00:00.000Z');
    expect(startOfUtcDay(at('2026-02-28T00:00:00.000Z')).toISOString()).toBe('2026-02-28T00:00:00.000Z');
  });
});

describe('daysLeft', () => {
  const until = '2026-03-21T00:00:00.000Z';
  it.each([
    ['2026-03-01T00:00:00.000Z', 20],
    ['2026-03-20T00:00:00.001Z', 1],
    ['2026-03-20T23:59:59.999Z', 1],
    ['2026-03-21T00:00:00.000Z', -1],
    ['2026-03-22T00:00:00.000Z', -1],
    ['2026-03-22T00:00:00.001Z', -2],
  ])('at %s is %i', (now, expected) => {
    expect(daysLeft(until, at(now))).toBe(expected);
  });

  // Kept license pages are made again at this instant (http/kept-answers.ts keptUntil): it must be the very next step.
  it.each([
    '2026-03-01T00:00:00.000Z', '2026-03-01T07:30:00.000Z', '2026-03-20T00:00:00.001Z', '2026-03-20T23:59:59.999Z',
    '2026-03-21T00:00:00.000Z', '2026-03-21T13:00:00.000Z', '2026-03-22T00:00:00.000Z', '2026-03-22T00:00:00.001Z',
  ])('from %s the next step is where the count changes, and none comes before it', (now) => {
    const from = at(now);
    const next = daysLeftChangesAt(until, from);
    expect(next).toBeGreaterThan(from.getTime());
    expect(daysLeft(until, new Date(next))).not.toBe(daysLeft(until, from));
    expect(daysLeft(until, new Date(next - 1))).toBe(daysLeft(until, from));
  });

  it('counts the hours across the autumn DST change, not calendar days of a zone', () => {
    // Berlin leaves summer time on 25-OCT-2026 at 03:00 (+02:00 → +01:00): the local day has 25 hours.
    const berlinMidnight26 = '2026-10-25T23:00:00.000Z';
    expect(daysLeft(berlinMidnight26, at('2026-10-24T22:00:00.000Z'))).toBe(2); // 25 h left
    expect(daysLeft(berlinMidnight26, at('2026-10-24T23:00:00.000Z'))).toBe(1); // exactly 24 h left
  });
});

describe('licenseStatus', () => {
  it('shows a request as Not approved, editable, approvable and rejectable, without a key', () => {
    const s = licenseStatus(license(), at('2026-03-05T00:00:00Z'));
    expect(s.badges).toEqual(['NOT_APPROVED']);
    expect(s).toMatchObject({ approval: 'NOT_APPROVED', can_edit: true, can_approve: true, can_reject: true, can_renew: false, can_acknowledge_expiry: false, has_license_key: false });
  });

  it('shows a request whose window has passed as Not approved and Expired; it can still be approved (with new dates)', () => {
    const s = licenseStatus(license(), at('2026-04-01T00:00:00Z'));
    expect(s.badges).toEqual(['NOT_APPROVED', 'EXPIRED']);
    expect(s.can_approve).toBe(true);
  });

  it('shows Rejected alone, and allows nothing', () => {
    for (const now of ['2026-03-05T00:00:00Z', '2026-05-01T00:00:00Z']) {
      const s = licenseStatus(license({ date_rejected: '2026-03-02T00:00:00Z' }), at(now));
      expect(s.badges).toEqual(['REJECTED']);
      expect([s.can_edit, s.can_approve, s.can_reject, s.can_renew, s.can_acknowledge_expiry, s.has_license_key]).toEqual([false, false, false, false, false, false]);
    }
  });

  it('moves an approved license from Approved to Valid to Expired at the exact instants', () => {
    const l = approved();
    expect(licenseStatus(l, at('2026-02-28T23:59:59.999Z')).badges).toEqual(['APPROVED']);
    expect(licenseStatus(l, at('2026-03-01T00:00:00.000Z')).badges).toEqual(['VALID']);
    expect(licenseStatus(l, at('2026-03-20T23:59:59.999Z')).badges).toEqual(['VALID']);
    const expired = licenseStatus(l, at('2026-03-21T00:00:00.000Z'));
    expect(expired.badges).toEqual(['EXPIRED']);
    expect(expired).toMatchObject({ days_left: -1, can_renew: true, can_acknowledge_expiry: true, pending_acknowledgement: true, has_license_key: true, can_edit: false });
  });

  it(`opens renewal in the last ${RENEWAL_WINDOW_DAYS} days of an approved license that has started`, () => {
    const l = approved();
    expect(licenseStatus(l, at('2026-03-13T23:59:59.999Z')).can_renew).toBe(false); // 8 days left
    expect(licenseStatus(l, at('2026-03-14T00:00:00.000Z')).can_renew).toBe(true); // 7 days left
    expect(licenseStatus(l, at('2026-03-14T00:00:00.000Z')).can_acknowledge_expiry).toBe(false);
    // A five-day license approved ahead of its start has fewer than 7 days left but is not yet in force.
    const short = approved({ date_valid_from: '2026-03-10T00:00:00Z', date_valid_until: '2026-03-15T00:00:00Z' });
    expect(licenseStatus(short, at('2026-03-09T00:00:00Z')).can_renew).toBe(false);
    expect(licenseStatus(short, at('2026-03-10T00:00:00Z')).can_renew).toBe(true);
  });

  it('shows Extension requested until the successor is approved, then Extended; neither renews nor acknowledges again', () => {
    const now = at('2026-04-01T00:00:00Z');
    const requested = licenseStatus(approved({ extended_by: { date_approved: null } }), now);
    expect(requested.badges).toEqual(['EXPIRED', 'EXTENSION_REQUESTED']);
    expect([requested.can_renew, requested.can_acknowledge_expiry, requested.pending_acknowledgement]).toEqual([false, false, false]);
    const extended = licenseStatus(approved({ extended_by: { date_approved: '2026-03-25T00:00:00Z' } }), now);
    expect(extended.badges).toEqual(['EXPIRED', 'EXTENDED']);
    expect(extended.can_renew).toBe(false);
    // Renewed ahead of expiry: still Valid while the successor waits.
    expect(licenseStatus(approved({ extended_by: { date_approved: null } }), at('2026-03-18T00:00:00Z')).badges).toEqual(['VALID', 'EXTENSION_REQUESTED']);
  });

  it('shows Expiry acknowledged and closes renewal and acknowledgement', () => {
    const s = licenseStatus(approved({ date_expiry_acknowledged: '2026-03-22T00:00:00Z' }), at('2026-04-01T00:00:00Z'));
    expect(s.badges).toEqual(['EXPIRED', 'EXPIRY_ACKNOWLEDGED']);
    expect([s.can_renew, s.can_acknowledge_expiry, s.pending_acknowledgement]).toEqual([false, false, false]);
  });

  it('answers the same for the same instant written in different zones (no dependence on the machine zone)', () => {
    const berlin = approved({ date_valid_from: '2026-03-29T00:00:00+01:00', date_valid_until: '2026-03-30T00:00:00+02:00' });
    const utc = approved({ date_valid_from: '2026-03-28T23:00:00Z', date_valid_until: '2026-03-29T22:00:00Z' });
    for (const now of ['2026-03-28T22:59:59Z', '2026-03-28T23:00:00Z', '2026-03-29T21:59:59Z', '2026-03-29T22:00:00Z']) {
      expect(licenseStatus(berlin, at(now))).toEqual(licenseStatus(utc, at(now)));
    }
    // The 29th in Berlin has 23 hours; the window [from, until) is exactly those.
    expect(licenseStatus(utc, at('2026-03-29T21:59:59.999Z')).badges).toEqual(['VALID']);
    expect(licenseStatus(utc, at('2026-03-29T22:00:00.000Z')).badges).toEqual(['EXPIRED']);
  });
});

// An open page renders again at the instant nextCertificateChange / nextLicenseChange names
// (web/lib/status-clock.ts): the status must change exactly there, and nowhere in between.
describe('the next instant a status changes', () => {
  const MS = 1;
  const certificate: CertificateDates = {
    date_not_before: '2026-03-01T00:00:00.000Z', date_not_after: '2026-03-21T00:00:00.000Z',
    date_approved: '2026-02-28T00:00:00.000Z', date_revoked: null, date_expiry_acknowledged: null,
  };

  it.each([
    ['2026-02-01T00:00:00.000Z', '2026-03-01T00:00:00.000Z'],
    ['2026-02-28T23:59:59.999Z', '2026-03-01T00:00:00.000Z'],
    ['2026-03-01T00:00:00.000Z', '2026-03-21T00:00:00.000Z'],
    ['2026-03-20T23:59:59.999Z', '2026-03-21T00:00:00.000Z'],
    ['2026-03-21T00:00:00.000Z', null],
    ['2027-01-01T00:00:00.000Z', null],
  ])('of a certificate, seen at %s, is %s', (now, next) => {
    expect(nextCertificateChange(certificate, at(now))?.toISOString() ?? null).toBe(next);
  });

  it('of a certificate: the status differs at t − 1 ms and t, and is the same at t and t + 1 ms', () => {
    let now = at('2026-01-01T00:00:00.000Z');
    const seen: string[] = [];
    for (let next = nextCertificateChange(certificate, now); next; next = nextCertificateChange(certificate, now)) {
      const t = next.getTime();
      expect(certificateStatus(certificate, new Date(t - MS))).not.toEqual(certificateStatus(certificate, next));
      expect(certificateStatus(certificate, new Date(t + MS))).toEqual(certificateStatus(certificate, next));
      // Nothing changes between the instant seen and the next change.
      expect(certificateStatus(certificate, now)).toEqual(certificateStatus(certificate, new Date(t - MS)));
      seen.push(next.toISOString());
      now = next;
    }
    expect(seen).toEqual(['2026-03-01T00:00:00.000Z', '2026-03-21T00:00:00.000Z']);
    expect(certificateStatus(certificate, now).valid).toBe(false);
  });

  it('of a license: valid-from, each whole-day step of days left, valid-until; the status changes at each', () => {
    const l = approved(); // 20 days: 01-MAR to 21-MAR (exclusive)
    let now = at('2026-02-27T12:00:00.000Z');
    const seen: string[] = [];
    for (let next = nextLicenseChange(l, now); next; next = nextLicenseChange(l, now)) {
      const t = next.getTime();
      expect(licenseStatus(l, new Date(t - MS))).not.toEqual(licenseStatus(l, next));
      expect(licenseStatus(l, new Date(t + MS))).toEqual(licenseStatus(l, next));
      expect(licenseStatus(l, now)).toEqual(licenseStatus(l, new Date(t - MS)));
      seen.push(next.toISOString());
      now = next;
    }
    // 28-FEB 00:00 (days left 22 → 21), 01-MAR (valid; 20), 02-MAR to 20-MAR (19 → 1), 21-MAR (expired).
    expect(seen).toHaveLength(22);
    expect(seen[0]).toBe('2026-02-28T00:00:00.000Z');
    expect(seen[1]).toBe('2026-03-01T00:00:00.000Z');
    expect(seen.at(-2)).toBe('2026-03-20T00:00:00.000Z');
    expect(seen.at(-1)).toBe('2026-03-21T00:00:00.000Z');
    // The renewal window opens at one of them: 7 days before the end.
    expect(licenseStatus(l, at('2026-03-13T23:59:59.999Z')).can_renew).toBe(false);
    expect(licenseStatus(l, at('2026-03-14T00:00:00.000Z')).can_renew).toBe(true);
    expect(seen).toContain('2026-03-14T00:00:00.000Z');
  });

  it('of a license whose window crosses the autumn DST change in Berlin: at the instants, not at local midnights', () => {
    // From 20-OCT-2026 00:00 in Berlin (+02:00) for 20 days of 24 h: ends 08-NOV 23:00 (+01:00).
    const l = approved({ date_valid_from: '2026-10-19T22:00:00.000Z', date_valid_until: licenseValidUntil('2026-10-19T22:00:00.000Z', 20) });
    expect(l.date_valid_until).toBe('2026-11-08T22:00:00.000Z');
    expect(nextLicenseChange(l, at('2026-11-08T21:59:59.999Z'))?.toISOString()).toBe('2026-11-08T22:00:00.000Z');
    expect(licenseStatus(l, at('2026-11-08T21:59:59.999Z')).badges).toEqual(['VALID']);
    expect(licenseStatus(l, at('2026-11-08T22:00:00.000Z')).badges).toEqual(['EXPIRED']);
    expect(nextLicenseChange(l, at('2026-11-08T22:00:00.000Z'))).toBeNull();
  });

  it('of a list: the earliest of its rows', () => {
    expect(earliest([null, at('2026-03-02T00:00:00Z'), at('2026-03-01T00:00:00Z'), null])?.toISOString()).toBe('2026-03-01T00:00:00.000Z');
    expect(earliest([])).toBeNull();
  });

  it('is waited for with one timer, capped at setTimeout\'s maximum', () => {
    const next = at('2026-03-21T00:00:00.000Z');
    expect(delayUntil(next, new Date(next.getTime() - 1))).toBe(1);
    expect(delayUntil(next, next)).toBe(0);
    expect(delayUntil(next, new Date(next.getTime() + 1))).toBe(0);
    expect(delayUntil(next, new Date(next.getTime() - 30 * 86_400_000))).toBe(MAX_TIMER_DELAY_MS);
    expect(MAX_TIMER_DELAY_MS).toBe(2 ** 31 - 1);
  });
});
