/**
 * When a license starts and ends (DECISIONS.md "Licenses", docs/decisions.md "Licenses"): `days_valid`
 * calendar days in the requester's zone (`time_zone`), from the start of a day there. Without a zone the
 * API counts in UTC as it always did: valid-from defaults to the UTC day, a date starts at 00:00 UTC, any
 * instant is taken as sent, and a day is 24 hours.
 */
import { isDate, parseInstant } from '../../../common/schemas/license';
import { DAY } from '../../../common/dates';
import { DEFAULT_TIME_ZONE, dayStartOfDate, isDayStartIn, licenseValidUntil, startOfDayIn } from '../../../common/zones';
import { badRequest } from '../../errors';

export interface Window {
  date_valid_from: string;
  date_valid_until: string;
  time_zone: string;
}

/** The window of `days` calendar days in `zone` from `from` (an instant that starts a day there, or any instant in UTC). */
function windowOf(from: string, days: number, zone: string): Window {
  return { date_valid_from: from, date_valid_until: licenseValidUntil(from, days, zone), time_zone: zone };
}

/**
 * A start as sent (common/schemas/license.ts `parseStart`) as the instant it means in `zone`: a date is the
 * start of that day there; an instant must be one, except in UTC, where any instant is taken as it is (so
 * clients that send their own midnight without a zone work as before).
 */
function startIn(start: string, zone: string, field = 'date_valid_from'): string {
  if (isDate(start)) return dayStartOfDate(start, zone).toISOString();
  if (zone === DEFAULT_TIME_ZONE || isDayStartIn(new Date(start), zone)) return start;
  const day = startOfDayIn(new Date(start), zone).toISOString();
  throw badRequest(`${field}: ${start} is not midnight in ${zone}. Send the date, or the instant its day starts there (${day}).`, field);
}

/** The window of a request: from the day sent (today in the zone when none), `days` calendar days there. */
export function requestedWindow(input: { date_valid_from?: string; days_valid: number; time_zone?: string }, now: Date): Window {
  const zone = input.time_zone ?? DEFAULT_TIME_ZONE;
  const from = input.date_valid_from === undefined ? startOfDayIn(now, zone).toISOString() : startIn(input.date_valid_from, zone);
  return windowOf(from, input.days_valid, zone);
}

/**
 * The window an approval leaves: a moved start is a day's start in the approver's zone (`time_zone`,
 * else the license's), where the days are then counted; an unmoved start keeps the license's zone,
 * whatever zone the approver is in.
 */
export function approvedWindow(
  row: Window, input: { date_valid_from?: string; days_valid: number; time_zone?: string },
): Window {
  const zone = input.time_zone ?? row.time_zone;
  const sent = input.date_valid_from;
  const from = sent === undefined ? row.date_valid_from : isDate(sent) ? dayStartOfDate(sent, zone).toISOString() : sent;
  if (from === row.date_valid_from) return windowOf(row.date_valid_from, input.days_valid, row.time_zone);
  return windowOf(startIn(from, zone), input.days_valid, zone);
}

/** How far the requester's clock may be from ours when they say when their day started. */
const CLOCK_SKEW_MS = 60 * 60_000;

/**
 * `?today=`: the instant the requester's day started (their local midnight), within the last 24 hours
 * in every zone, allowing an hour for the requester's clock.
 */
export function todayStart(now: Date, today: string): string {
  const instant = parseInstant(today.trim());
  const t = instant ? new Date(instant).getTime() : Number.NaN;
  if (!(t >= now.getTime() - DAY - CLOCK_SKEW_MS && t <= now.getTime() + CLOCK_SKEW_MS)) {
    throw badRequest('today: the instant your day started (your local midnight) as ISO-8601, within the last 24 hours.', 'today');
  }
  return instant!;
}

/**
 * The window of a renewal's successor: the original's days from the requester's today. The requester's
 * zone (`time_zone`) names it; else `today` (their day's start); else the day now in the original's zone.
 * With `today` alone the days are counted in the original's zone when `today` starts a day there, else in
 * UTC (24-hour days from it, as before zones).
 */
export function renewalWindow(now: Date, original: Window & { days_valid: number }, caller: { today?: string; time_zone?: string }): Window {
  const days = original.days_valid;
  if (caller.today === undefined) {
    const zone = caller.time_zone ?? original.time_zone;
    return windowOf(startOfDayIn(now, zone).toISOString(), days, zone);
  }
  const from = todayStart(now, caller.today);
  if (caller.time_zone) return windowOf(startIn(from, caller.time_zone, 'today'), days, caller.time_zone);
  return windowOf(from, days, isDayStartIn(new Date(from), original.time_zone) ? original.time_zone : DEFAULT_TIME_ZONE);
}
