/**
 * Calendar days in a named time zone (DECISIONS.md "Licenses", docs/decisions.md "Licenses"): a
 * license's days are counted in the zone in which it starts at local midnight, the requester's,
 * whatever zone the server or a viewer is in. `@date-fns/tz` reads the zone rules the runtime has
 * (Intl); without a zone the API counts in UTC, where a calendar day is 24 hours.
 */
import { TZDate } from '@date-fns/tz';
import { formatDate } from './dates';

/** The zone of a request that names none: calendar days of UTC are 24 hours, as before zones. */
export const DEFAULT_TIME_ZONE = 'UTC';

/** An IANA name (Area/Location, Etc/GMT+5, UTC): no offsets such as +01:00, which are no zone's rules. */
const IANA_NAME = /^[A-Za-z][A-Za-z0-9_+-]*(?:\/[A-Za-z0-9_+-]+){0,2}$/;

/**
 * The zone as the runtime spells it (europe/berlin → Europe/Berlin, US/Eastern → America/New_York),
 * or null when the text names no IANA time zone the runtime knows.
 */
export function timeZoneName(text: string): string | null {
  if (text.length > 64 || !IANA_NAME.test(text)) return null;
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: text }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

/**
 * The zone this browser (or process) shows local times in, as the API takes it: what the web app sends
 * as `time_zone`. Undefined when the runtime names none the API would take (then the API counts in UTC).
 */
export function localTimeZone(): string | undefined {
  return timeZoneName(Intl.DateTimeFormat().resolvedOptions().timeZone ?? '') ?? undefined;
}

/**
 * The first instant of a calendar day in `zone`: its local midnight, or the hour a DST change at
 * midnight skips to (Santiago, Havana). `day` may run past the month (26-MAR + 10 = 36-MAR = 05-APR).
 */
function dayStart(year: number, monthIndex: number, day: number, zone: string): number {
  return +new TZDate(year, monthIndex, day, zone);
}

/** The first instant of the day that holds `instant` in `zone`: that person's "today" then. */
export function startOfDayIn(instant: Date | number, zone: string): Date {
  const local = new TZDate(+instant, zone);
  return new Date(dayStart(local.getFullYear(), local.getMonth(), local.getDate(), zone));
}

/** Does a day start at `instant` in `zone` (local midnight there)? */
export function isDayStartIn(instant: Date | number, zone: string): boolean {
  return startOfDayIn(instant, zone).getTime() === +instant;
}

/** 'YYYY-MM-DD' (already checked as a real date) → the first instant of that day in `zone`. */
export function dayStartOfDate(date: string, zone: string): Date {
  const [year, month, day] = date.split('-').map(Number);
  return new Date(dayStart(year, month - 1, day, zone));
}

/**
 * `days` calendar days after `from` in `zone` (fewer before it when negative): from a day's start, the
 * start of the day `days` later there, across DST changes; from another instant, the same wall time
 * `days` later (in UTC, `days` × 24 hours).
 */
export function addCalendarDays(from: string | Date, days: number, zone: string): string {
  const start = new TZDate(new Date(from).getTime(), zone);
  const [year, month, day] = [start.getFullYear(), start.getMonth(), start.getDate()];
  if (dayStart(year, month, day, zone) === +start) return new Date(dayStart(year, month, day + days, zone)).toISOString();
  const end = new TZDate(+start, zone);
  end.setDate(day + days);
  return new Date(+end).toISOString();
}

/**
 * `date_valid_until` = `date_valid_from` + `days` calendar days (exclusive end) in the license's zone:
 * 10 days from 26-MAR-2027 00:00 Berlin end 05-APR-2027 00:00 Berlin (9 × 24 + 23 hours). A start that
 * is no day's start (a client that names no zone and sends its own midnight, counted in UTC) ends the
 * same wall time later: in UTC that is `days` × 24 hours, as before zones.
 */
export function licenseValidUntil(from: string | Date, days: number, zone: string = DEFAULT_TIME_ZONE): string {
  return addCalendarDays(from, days, zone);
}

/** The calendar day that holds `instant` in `zone`, as SPEC.md §9 shows a date: 28-NOV-2026 (what a journal message names). */
export function displayDateIn(instant: Date | string | number, zone: string): string {
  const local = new TZDate(new Date(instant).getTime(), zone);
  return formatDate(new Date(local.getFullYear(), local.getMonth(), local.getDate()));
}

/** The calendar day (YYYY-MM-DD) that holds `instant` in `zone`. */
export function localDateIn(instant: Date | string | number, zone: string): string {
  const local = new TZDate(new Date(instant).getTime(), zone);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${local.getFullYear()}-${pad(local.getMonth() + 1)}-${pad(local.getDate())}`;
}
