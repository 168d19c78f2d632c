import { z } from 'zod';
import { abilitiesOf } from './abilities';
import { strictBody } from './body';
import { text } from './text';
import { LICENSE_SCOPES } from '../enums';
import { timeZoneName } from '../zones';

/** The successor made by a renewal (SPEC.md §3 `extended_by`). */
const licenseExtensionSchema = z.object({
  license_id: z.string(),
  license_name: z.string(),
  date_valid_from: z.string(),
  date_valid_until: z.string(),
  date_approved: z.string().nullable(),
});

/** SPEC.md §3 "License", as lists and details return it. */
export const licenseSchema = z.object({
  license_id: z.string(),
  license_name: z.string(),
  license_scope: z.enum(LICENSE_SCOPES),
  date_valid_from: z.string(),
  days_valid: z.number().int(),
  /** `date_valid_from` + `days_valid` calendar days in `time_zone`, exclusive. */
  date_valid_until: z.string(),
  /** The IANA time zone the days are counted in: the requester's, 'UTC' when the request named none. */
  time_zone: z.string(),
  note: z.string().nullable(),
  date_approved: z.string().nullable(),
  date_rejected: z.string().nullable(),
  date_expiry_acknowledged: z.string().nullable(),
  /** Whole days to `date_valid_until`; negative once it has passed. */
  days_left: z.number().int(),
  version: z.number().int(),
  organization_id: z.string(),
  organization_name: z.string(),
  date_created: z.string(),
  extended_by: licenseExtensionSchema.nullable(),
  abilities: abilitiesOf('license'),
});
export type License = z.infer<typeof licenseSchema>;

const YEAR_MIN = 2000;
const YEAR_MAX = 9000;
/** zod's ISO formats: a calendar date (30-FEB refused), or a date and time with Z or an offset, with or without seconds. */
const isoDate = z.iso.date();
const isoDateTimes = [z.iso.datetime({ offset: true }), z.iso.datetime({ offset: true, precision: -1 })];

/**
 * An ISO-8601 instant ('2024-03-04T23:00:00.000Z', the browser's local midnight) or a plain date
 * ('2024-03-05', taken as UTC midnight), normalised to `toISOString()`; null when it is no real date
 * or its year is outside 2000–9000.
 */
export function parseInstant(text: string): string | null {
  const start = parseStart(text);
  return start && (isDate(start) ? `${start}T00:00:00.000Z` : start);
}

/** Is this a plain date (YYYY-MM-DD) as `parseStart` gives it, rather than an instant? */
export const isDate = (start: string) => start.length === 10;

/**
 * A plain date ('2024-03-05', kept as it is: the day starts where the request's `time_zone` says) or
 * an ISO-8601 instant normalised to `toISOString()`; null when it is no real date or its year is
 * outside 2000–9000.
 */
function parseStart(text: string): string | null {
  const dateOnly = isoDate.safeParse(text).success;
  if (!dateOnly && !isoDateTimes.some((format) => format.safeParse(text).success)) return null;
  const year = Number(text.slice(0, 4));
  if (year < YEAR_MIN || year > YEAR_MAX) return null;
  if (dateOnly) return text;
  const instant = new Date(text);
  return Number.isNaN(instant.getTime()) ? null : instant.toISOString();
}

/** A license's start: a plain date, or an instant that must start a day in the request's zone (service.ts). */
// text(): a control character is refused as in every field, not trimmed away with the spaces around the date.
const start = text()
  .transform((value, ctx) => {
    const parsed = parseStart(value.trim());
    if (parsed) return parsed;
    ctx.addIssue({ code: 'custom', message: `a real date between ${YEAR_MIN} and ${YEAR_MAX}, as ISO-8601 (2024-03-05 or 2024-03-04T23:00:00.000Z)` });
    return z.NEVER;
  })
  .meta({
    description:
      'The first day: a date (2027-03-26), which starts at midnight in `time_zone`, or the instant of that midnight ' +
      '(2027-03-25T23:00:00.000Z for Europe/Berlin). Without `time_zone` a date starts at 00:00 UTC and any instant is taken as it is.',
  });

/**
 * An IANA time zone (Europe/Berlin), spelled as the runtime spells it; refused when unknown, and
 * when it is an offset (+01:00), which has no DST rules to count calendar days by.
 */
export const timeZoneField = text()
  .max(64)
  .transform((name, ctx) => {
    const zone = timeZoneName(name.trim());
    if (zone) return zone;
    ctx.addIssue({ code: 'custom', message: 'an IANA time zone such as Europe/Berlin or America/New_York' });
    return z.NEVER;
  });

const requestZone = timeZoneField.optional().meta({
  description:
    "The requester's IANA time zone (Europe/Berlin): `days_valid` are calendar days there, from the start of `date_valid_from`'s day " +
    '(10 days from 26-MAR-2027 in Europe/Berlin end 05-APR-2027 00:00 Berlin, across the DST change). Without it: UTC, ' +
    'where a day is 24 hours, and valid-from defaults to the UTC day.',
});

const licenseName = text().trim().min(1, 'a name is required').max(200, 'at most 200 characters');
const daysValid = z.number().int('a whole number of days').min(1, 'at least 1 day').max(3650, 'at most 3650 days');
const note = text().max(2000, 'at most 2000 characters').nullish();

/**
 * POST /api/organizations/{id}/licenses. Defaults of SPEC.md §5; valid-from defaults to today in
 * `time_zone` (UTC without it).
 */
export const licenseRequestSchema = strictBody({
  license_name: licenseName,
  license_scope: z.enum(LICENSE_SCOPES).default('EVALUATION'),
  date_valid_from: start.optional(),
  days_valid: daysValid.default(20),
  note,
  time_zone: requestZone,
});
export type LicenseRequest = z.input<typeof licenseRequestSchema>;

/**
 * POST /api/licenses/{id}/approve: the license as the approver sees it. The editable fields it
 * carries are applied; the rest of the license (days_left, dates...) is ignored.
 */
export const licenseApprovalSchema = strictBody({
  version: z.number().int().min(0),
  license_name: licenseName.optional(),
  license_scope: z.enum(LICENSE_SCOPES).optional(),
  date_valid_from: start.optional(),
  days_valid: daysValid.optional(),
  note,
  time_zone: timeZoneField.optional().meta({
    description: "The approver's IANA time zone, read only when `date_valid_from` changes: the new start is a day's start there, and the days are counted there. Otherwise the license keeps its zone.",
  }),
}, licenseSchema);

/**
 * ?version= of reject, renew and acknowledge-expiry: the version the caller saw, in decimal digits
 * (a number coerced from text would take `version=` for 0 and `0x1` for 1).
 */
export const versionQuery = z.object({ version: z.string().regex(/^\d{1,15}$/, 'the version you saw, a whole number').transform(Number) });
