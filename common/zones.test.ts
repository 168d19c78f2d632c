/**
 * Calendar days in a zone (DECISIONS.md "Licenses"): a license of N days from a day's start in its
 * zone ends at the start of the day N days later there, whatever DST does between. Checked against
 * Intl's own reading of the local date (not the library that computes it), with generated days and
 * lengths around the changes in Berlin, New York and Auckland, and in zones whose changes fall at
 * midnight (Santiago, Havana) or move half an hour (Lord Howe).
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { addCalendarDays, dayStartOfDate, isDayStartIn, licenseValidUntil, localDateIn, startOfDayIn, timeZoneName } from './zones';

const ZONES = ['Europe/Berlin', 'America/New_York', 'Pacific/Auckland', 'America/Santiago', 'America/Havana', 'Australia/Lord_Howe', 'UTC'];

/** One formatter per zone: making one is most of the cost of a format (the property test formats 6,000 dates). */
const formats = new Map(ZONES.map((zone) => [zone, new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' })]));
/** The local date of an instant in a zone, as Intl reads it: YYYY-MM-DD. */
const dateIn = (instant: number, zone: string) => formats.get(zone)!.format(instant);
/** The date `days` after a YYYY-MM-DD date (calendar arithmetic, no zone). */
const plusDays = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
const ms = (iso: string) => Date.parse(iso);

/** A day from 2026 to 2030, and a length of 1 to 3,650 days, or a day near a DST change and a short length. */
const day = fc.integer({ min: Date.UTC(2026, 0, 1), max: Date.UTC(2030, 11, 31) }).map((t) => new Date(t).toISOString().slice(0, 10));
const CHANGES = ['2027-03-28', '2027-10-31', '2027-03-14', '2027-11-07', '2027-04-04', '2027-09-26', '2027-09-05', '2027-04-04', '2027-03-14', '2027-10-03'];
const nearChange = fc.tuple(fc.constantFrom(...CHANGES), fc.integer({ min: -12, max: 2 })).map(([date, shift]) => plusDays(date, shift));

describe('licenseValidUntil in a zone', () => {
  it('ends 10 days from 26-MAR-2027 in Berlin at 05-APR-2027 00:00 Berlin, 9 × 24 + 23 hours later', () => {
    const from = dayStartOfDate('2027-03-26', 'Europe/Berlin').toISOString();
    expect(from).toBe('2027-03-25T23:00:00.000Z');
    const until = licenseValidUntil(from, 10, 'Europe/Berlin');
    expect(until).toBe('2027-04-04T22:00:00.000Z');
    expect(ms(until) - ms(from)).toBe((9 * 24 + 23) * 3_600_000);
  });

  it('ends at local midnight across the spring change in New York and the autumn change in Auckland', () => {
    // New York moves to EDT on 14-MAR-2027; Auckland back to NZST on 04-APR-2027.
    expect(licenseValidUntil(dayStartOfDate('2027-03-12', 'America/New_York'), 10, 'America/New_York')).toBe('2027-03-22T04:00:00.000Z');
    expect(licenseValidUntil(dayStartOfDate('2027-04-01', 'Pacific/Auckland'), 10, 'Pacific/Auckland')).toBe('2027-04-10T12:00:00.000Z');
    // Across Auckland's spring change (27-SEP-2026): 20-SEP 00:00 +12 to 30-SEP 00:00 +13.
    expect(licenseValidUntil(dayStartOfDate('2026-09-20', 'Pacific/Auckland'), 10, 'Pacific/Auckland')).toBe('2026-09-29T11:00:00.000Z');
    // Berlin's autumn change (31-OCT-2027): a day of 25 hours inside the window.
    expect(licenseValidUntil(dayStartOfDate('2027-10-30', 'Europe/Berlin'), 2, 'Europe/Berlin')).toBe('2027-10-31T23:00:00.000Z');
  });

  it('is the start of the day N days later in the zone, for any day, length and zone (property)', () => {
    fc.assert(
      fc.property(fc.oneof(day, nearChange), fc.oneof(fc.integer({ min: 1, max: 3650 }), fc.integer({ min: 1, max: 40 })), fc.constantFrom(...ZONES), (date, days, zone) => {
        const from = dayStartOfDate(date, zone).getTime();
        // The start is the first instant of that day there: the instant before is the day before.
        expect(dateIn(from, zone)).toBe(date);
        expect(dateIn(from - 1, zone)).toBe(plusDays(date, -1));
        const until = ms(licenseValidUntil(new Date(from).toISOString(), days, zone));
        expect(dateIn(until, zone)).toBe(plusDays(date, days));
        expect(dateIn(until - 1, zone)).toBe(plusDays(date, days - 1));
        expect(isDayStartIn(until, zone)).toBe(true);
        expect(localDateIn(until, zone)).toBe(plusDays(date, days));
      }),
      { numRuns: 1500 },
    );
  });

  it('counts 24-hour days in UTC from any instant, as before zones: a client that sends its own midnight and no zone', () => {
    fc.assert(
      fc.property(fc.integer({ min: Date.UTC(2026, 0, 1), max: Date.UTC(2030, 0, 1) }), fc.integer({ min: -400, max: 3650 }), (t, days) => {
        expect(addCalendarDays(new Date(t), days, 'UTC')).toBe(new Date(t + days * 86_400_000).toISOString());
        expect(licenseValidUntil(new Date(t), Math.max(days, 1))).toBe(new Date(t + Math.max(days, 1) * 86_400_000).toISOString());
      }),
    );
  });
});

describe('the day of an instant in a zone', () => {
  it('starts at the first instant of that local day: t − 1 ms, t, t + 1 ms around a midnight', () => {
    const t = ms('2027-03-25T23:00:00.000Z'); // 26-MAR 00:00 Berlin
    expect(startOfDayIn(t - 1, 'Europe/Berlin').toISOString()).toBe('2027-03-24T23:00:00.000Z');
    expect(startOfDayIn(t, 'Europe/Berlin').toISOString()).toBe('2027-03-25T23:00:00.000Z');
    expect(startOfDayIn(t + 1, 'Europe/Berlin').toISOString()).toBe('2027-03-25T23:00:00.000Z');
    expect([t - 1, t, t + 1].map((x) => isDayStartIn(x, 'Europe/Berlin'))).toEqual([false, true, false]);
  });

  it('starts at the hour a DST change at midnight skips to (Santiago, 06-SEP-2026)', () => {
    expect(dayStartOfDate('2026-09-06', 'America/Santiago').toISOString()).toBe('2026-09-06T04:00:00.000Z'); // 01:00 -03
  });

  it('is today in the zone: New York’s evening is the day before UTC’s, Auckland’s morning the day after', () => {
    const now = new Date('2026-11-28T12:00:00.000Z');
    expect(startOfDayIn(now, 'America/New_York').toISOString()).toBe('2026-11-28T05:00:00.000Z');
    expect(startOfDayIn(now, 'Pacific/Auckland').toISOString()).toBe('2026-11-28T11:00:00.000Z'); // 29-NOV 00:00 +13
    expect(startOfDayIn(new Date('2026-11-28T03:00:00.000Z'), 'America/New_York').toISOString()).toBe('2026-11-27T05:00:00.000Z');
  });
});

describe('timeZoneName', () => {
  it('takes IANA names, spelled as the runtime spells them', () => {
    expect(timeZoneName('Europe/Berlin')).toBe('Europe/Berlin');
    expect(timeZoneName('europe/berlin')).toBe('Europe/Berlin');
    expect(timeZoneName('UTC')).toBe('UTC');
    expect(timeZoneName('Etc/GMT+5')).toBe('Etc/GMT+5');
    // Three parts; the runtime may name it by its canonical link (America/Buenos_Aires).
    expect(timeZoneName('America/Argentina/Buenos_Aires')).toMatch(/Buenos_Aires$/);
  });

  it.each(['', 'Mars/Olympus', '+01:00', 'UTC+1', 'Europe/Berlin ', '../etc/passwd', 'Europe/Berlin\u0000', 'x'.repeat(65)])('refuses %j', (text) => {
    expect(timeZoneName(text)).toBeNull();
  });
});
