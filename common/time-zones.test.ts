/**
 * The days people see, in the zones where they go wrong (docs/decisions.md "Licenses"): the last
 * valid day of a window of 24-hour days across a DST change in Berlin, and "today" in New York,
 * where the UTC day starts the evening before. process.env.TZ is set per block; Node applies it
 * to every Date from then on.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatDate, formatLastValidDay, formatUtcDateTime, lastValidDay, localizeTimesInText, startOfLocalDay } from './dates';
import { startOfUtcDay } from './status';
import { displayDateIn, licenseValidUntil } from './zones';

function inZone(zone: string, body: () => void) {
  describe(`in ${zone}`, () => {
    const before = process.env.TZ;
    beforeAll(() => {
      process.env.TZ = zone;
    });
    afterAll(() => {
      if (before === undefined) delete process.env.TZ;
      else process.env.TZ = before;
    });
    body();
  });
}

inZone('Europe/Berlin', () => {
  it('writes an instant of a notice, journal message or mail zone-explicit, and shows it on screen in the viewer’s zone', () => {
    const expired = '2026-11-23T11:47:59.000Z';
    const text = `Certificate CN=a expired on ${formatUtcDateTime(expired)}.`;
    expect(text).toBe('Certificate CN=a expired on 23-NOV-2026 11:47:59 UTC.');
    expect(localizeTimesInText(text)).toBe('Certificate CN=a expired on 23-NOV-2026 12:47:59.');
    // At the day's edges: 1 ms before midnight UTC is the next day in Berlin; other text stays as it was.
    expect(formatUtcDateTime('2026-07-31T23:59:59.999Z')).toBe('31-JUL-2026 23:59:59 UTC');
    expect(localizeTimesInText('until 31-JUL-2026 23:59:59 UTC, then 2026-08-01')).toBe('until 01-AUG-2026 01:59:59, then 2026-08-01');
    expect(localizeTimesInText('CN=31-JUL-2026 23:59:59 UTCX')).toBe('CN=31-JUL-2026 23:59:59 UTCX');
  });

  it('names a calendar day in a zone in SPEC.md §9 form: the day there, not the viewer’s', () => {
    expect(displayDateIn('2027-03-25T23:00:00.000Z', 'Europe/Berlin')).toBe('26-MAR-2027');
    expect(displayDateIn('2027-03-25T23:00:00.000Z', 'UTC')).toBe('25-MAR-2027');
    expect(displayDateIn('2027-03-25T22:59:59.999Z', 'Europe/Berlin')).toBe('25-MAR-2027');
  });

  it('is the zone the test means', () => {
    expect(new Date('2026-01-15T12:00:00Z').getTimezoneOffset()).toBe(-60);
    expect(new Date('2026-07-15T12:00:00Z').getTimezoneOffset()).toBe(-120);
  });

  it('shows the last valid day of a window that ends at local midnight', () => {
    // 01-MAY-2026 00:00 (+02:00) for 20 days: ends 21-MAY 00:00, so 20-MAY is the last day.
    const until = licenseValidUntil(new Date(2026, 4, 1).toISOString(), 20);
    expect(formatLastValidDay(until)).toBe('20-MAY-2026');
    expect(formatDate(lastValidDay(until))).toBe('20-MAY-2026');
  });

  it('does not read a day short across the autumn change: the day it ends, and when', () => {
    // 20-OCT-2026 00:00 (+02:00) for 20 days of 24 h ends 08-NOV 23:00 (+01:00): 08-NOV is valid
    // until 23:00. "Valid until 08-NOV-2026 (exclusive)" said 07-NOV was the last day.
    const from = new Date(2026, 9, 20).toISOString();
    const until = licenseValidUntil(from, 20);
    expect(until).toBe('2026-11-08T22:00:00.000Z');
    expect(formatLastValidDay(until)).toBe('08-NOV-2026, until 23:00');
  });

  it('names the hour the window runs into after the spring change', () => {
    // 20-MAR-2026 00:00 (+01:00) for 20 days ends 09-APR 01:00 (+02:00).
    const until = licenseValidUntil(new Date(2026, 2, 20).toISOString(), 20);
    expect(formatLastValidDay(until)).toBe('09-APR-2026, until 01:00');
  });

  it('takes the day of the instant just before the end: t − 1 ms, t, t + 1 ms', () => {
    const t = new Date(2026, 4, 21).getTime(); // 21-MAY 00:00 local
    expect(formatLastValidDay(t - 1)).toBe('20-MAY-2026, until 23:59:59');
    expect(formatLastValidDay(t)).toBe('20-MAY-2026');
    expect(formatLastValidDay(t + 1)).toBe('21-MAY-2026, until 00:00:00');
  });
});

inZone('America/New_York', () => {
  it('shows the zone-explicit instant of a text in New York: the evening before', () => {
    expect(localizeTimesInText('expired on 23-NOV-2026 03:00:00 UTC.')).toBe('expired on 22-NOV-2026 22:00:00.');
  });

  it('is the zone the test means', () => {
    expect(new Date('2026-01-15T12:00:00Z').getTimezoneOffset()).toBe(300);
  });

  it("starts the viewer's day at their midnight, where the UTC day showed as the day before", () => {
    // 15-MAR-2026 10:00Z is 06:00 in New York (-04:00 since 08-MAR).
    const now = new Date('2026-03-15T10:00:00.000Z');
    expect(formatDate(startOfUtcDay(now))).toBe('14-MAR-2026');
    expect(startOfLocalDay(now).toISOString()).toBe('2026-03-15T04:00:00.000Z');
    expect(formatDate(startOfLocalDay(now))).toBe('15-MAR-2026');
    // Late in the evening the UTC day is already tomorrow; the viewer's is still today.
    const evening = new Date('2026-03-16T03:30:00.000Z');
    expect(formatDate(startOfLocalDay(evening))).toBe('15-MAR-2026');
  });

  it('starts the day right at midnight: t − 1 ms, t, t + 1 ms', () => {
    const t = new Date('2026-03-15T04:00:00.000Z').getTime();
    expect(startOfLocalDay(new Date(t - 1)).toISOString()).toBe('2026-03-14T04:00:00.000Z');
    expect(startOfLocalDay(new Date(t)).toISOString()).toBe('2026-03-15T04:00:00.000Z');
    expect(startOfLocalDay(new Date(t + 1)).toISOString()).toBe('2026-03-15T04:00:00.000Z');
  });

  it('has a 23-hour day at the spring change, and still starts it at midnight', () => {
    // 08-MAR-2026: 02:00 EST becomes 03:00 EDT.
    expect(startOfLocalDay(new Date('2026-03-08T20:00:00.000Z')).toISOString()).toBe('2026-03-08T05:00:00.000Z');
    expect(startOfLocalDay(new Date('2026-03-09T03:59:59.999Z')).toISOString()).toBe('2026-03-08T05:00:00.000Z');
    expect(startOfLocalDay(new Date('2026-03-09T04:00:00.000Z')).toISOString()).toBe('2026-03-09T04:00:00.000Z');
  });
});
