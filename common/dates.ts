/**
 * The date formats of SPEC.md §9, in the viewer's local time zone.
 * Display: 05-MAR-2024; with time: 05-MAR-2024 14:03:09; short: 5-MAR-2024; machine: 2024-03-05.
 */
const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'] as const;

const pad = (n: number) => String(n).padStart(2, '0');

function toDate(value: Date | string | number): Date {
  return value instanceof Date ? value : new Date(value);
}

/** 05-MAR-2024 */
export function formatDate(value: Date | string | number): string {
  const d = toDate(value);
  return `${pad(d.getDate())}-${MONTHS[d.getMonth()]}-${d.getFullYear()}`;
}

/** 05-MAR-2024 14:03:09 (24-hour clock) */
export function formatDateTime(value: Date | string | number): string {
  const d = toDate(value);
  return `${formatDate(d)} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

/** 05-MAR-2024 14:03: to the minute, for an instant people choose (the end of a time-boxed role). */
export function formatDateMinute(value: Date | string | number): string {
  const d = toDate(value);
  return `${formatDate(d)} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** 2024-03-05T14:03: the value of an `<input type="datetime-local">` for an instant, in the viewer's zone. */
export function toLocalInput(value: Date | string | number): string {
  const d = toDate(value);
  return `${formatMachineDate(d)}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** 5-MAR-2024: the short form without zero padding. */
export function formatShortDate(value: Date | string | number): string {
  const d = toDate(value);
  return `${d.getDate()}-${MONTHS[d.getMonth()]}-${d.getFullYear()}`;
}

/** 2024-03-05: the machine form, zero padded. */
export function formatMachineDate(value: Date | string | number): string {
  const d = toDate(value);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/**
 * The last day a window covers whose end `until` is exclusive (a license's date_valid_until): the
 * local day of the instant just before it. 21-MAR 00:00 → 20-MAR.
 */
export function lastValidDay(until: Date | string | number): Date {
  return new Date(toDate(until).getTime() - 1);
}

const atLocalMidnight = (d: Date) => d.getHours() === 0 && d.getMinutes() === 0 && d.getSeconds() === 0 && d.getMilliseconds() === 0;

/** 23:00, or 23:59:59 when seconds are set. */
function clockTime(d: Date): string {
  const seconds = d.getSeconds() || d.getMilliseconds() ? `:${pad(d.getSeconds())}` : '';
  return `${pad(d.getHours())}:${pad(d.getMinutes())}${seconds}`;
}

/**
 * The last valid day of a window with exclusive end `until`, as a person reads it: "20-MAR-2026"
 * when it ends at local midnight, "08-NOV-2026, until 23:00" when it ends within a day (a license
 * counted in another zone than the viewer's, or in 24-hour days across a DST change). Seconds show
 * only when set.
 */
export function formatLastValidDay(until: Date | string | number): string {
  const end = toDate(until);
  const day = formatDate(lastValidDay(end));
  return atLocalMidnight(end) ? day : `${day}, until ${clockTime(end)}`;
}

/**
 * The first valid day of a window starting at `from`, the counterpart of formatLastValidDay:
 * "26-MAR-2027" when it starts at local midnight, "25-MAR-2027, from 19:00" when it starts within
 * a day (a license counted in another zone), so the two never read as a different number of days.
 */
export function formatFirstValidDay(from: Date | string | number): string {
  const start = toDate(from);
  return atLocalMidnight(start) ? formatDate(start) : `${formatDate(start)}, from ${clockTime(start)}`;
}

/** The instant of local midnight at the start of `now`'s local day: the viewer's "today". */
export function startOfLocalDay(now: Date): Date {
  return new Date(now.getFullYear(), now.getMonth(), now.getDate());
}

function localMidnight(year: number, monthIndex: number, day: number): Date | null {
  const d = new Date(year, monthIndex, day);
  // Reject 31-FEB and the like instead of letting Date roll over into the next month.
  return d.getFullYear() === year && d.getMonth() === monthIndex && d.getDate() === day ? d : null;
}

/** '2024-03-05' → local midnight of that day; null when the text is not a real date. */
export function parseMachineDate(text: string): Date | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text.trim());
  return m ? localMidnight(Number(m[1]), Number(m[2]) - 1, Number(m[3])) : null;
}

/** '05-MAR-2024' (any letter case) → local midnight of that day; null when not a real date. */
export function parseDisplayDate(text: string): Date | null {
  const m = /^(\d{1,2})-([A-Za-z]{3})-(\d{4})$/.exec(text.trim());
  if (!m) return null;
  const month = MONTHS.indexOf(m[2].toUpperCase() as (typeof MONTHS)[number]);
  return month < 0 ? null : localMidnight(Number(m[3]), month, Number(m[1]));
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;

/** Relative time text: less than a minute, minutes, hours and minutes, or days (SPEC.md §9). */
export function formatDuration(ms: number): string {
  const abs = Math.abs(ms);
  if (abs < MINUTE) return 'less than a minute';
  if (abs < HOUR) return plural(Math.floor(abs / MINUTE), 'minute');
  if (abs < DAY) {
    const hours = Math.floor(abs / HOUR);
    const minutes = Math.floor((abs % HOUR) / MINUTE);
    return minutes ? `${plural(hours, 'hour')} and ${plural(minutes, 'minute')}` : plural(hours, 'hour');
  }
  return plural(Math.floor(abs / DAY), 'day');
}

/** Days-left display (SPEC.md §5): a dash when 0 or less, 'in 1 day', or 'in N days'. */
export function formatDaysLeft(daysLeft: number | null | undefined): string {
  if (daysLeft == null || daysLeft <= 0) return '-';
  return daysLeft === 1 ? 'in 1 day' : `in ${daysLeft} days`;
}

/**
 * An instant in text that leaves the portal's screens (notices, journal messages, mails, webhooks): the
 * date-time of SPEC.md §9 in UTC, with the zone named, 23-NOV-2026 11:47:59 UTC. The same text is stored
 * once and read in many zones; on screen localizeTimesInText shows it in the viewer's zone.
 */
export function formatUtcDateTime(value: Date | string | number): string {
  const d = toDate(value);
  const day = `${pad(d.getUTCDate())}-${MONTHS[d.getUTCMonth()]}-${d.getUTCFullYear()}`;
  return `${day} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())} UTC`;
}

const UTC_DATE_TIME = /\b(\d{2})-(JAN|FEB|MAR|APR|MAY|JUN|JUL|AUG|SEP|OCT|NOV|DEC)-(\d{4}) (\d{2}):(\d{2}):(\d{2}) UTC\b/g;

/** Text with formatUtcDateTime's instants shown in the viewer's zone (formatDateTime), as the screens show every time. */
export function localizeTimesInText(text: string): string {
  return text.replace(UTC_DATE_TIME, (_all, day: string, month: string, year: string, h: string, m: string, s: string) =>
    formatDateTime(Date.UTC(Number(year), MONTHS.indexOf(month as (typeof MONTHS)[number]), Number(day), Number(h), Number(m), Number(s))),
  );
}
