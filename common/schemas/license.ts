import { z } from 'zod';
import { abilitiesOf } from './abilities';
import { strictBody } from './body';
import { text } from './text';
import { LICENSE_SCOPES } from '../enums';

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
  /** `date_valid_from` + `days_valid` days, exclusive. */
  date_valid_until: z.string(),
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
  const dateOnly = isoDate.safeParse(text).success;
  if (!dateOnly && !isoDateTimes.some((format) => format.safeParse(text).success)) return null;
  const year = Number(text.slice(0, 4));
  if (year < YEAR_MIN || year > YEAR_MAX) return null;
  const instant = new Date(dateOnly ? `${text}T00:00:00.000Z` : text);
  return Number.isNaN(instant.getTime()) ? null : instant.toISOString();
}

const instant = z
  .string()
  .transform((text, ctx) => {
    const parsed = parseInstant(text.trim());
    if (parsed) return parsed;
    ctx.addIssue({ code: 'custom', message: `a real date between ${YEAR_MIN} and ${YEAR_MAX}, as ISO-8601 (2024-03-05 or 2024-03-04T23:00:00.000Z)` });
    return z.NEVER;
  });

const licenseName = text().trim().min(1, 'a name is required').max(200, 'at most 200 characters');
const daysValid = z.number().int('a whole number of days').min(1, 'at least 1 day').max(3650, 'at most 3650 days');
const note = text().max(2000, 'at most 2000 characters').nullish();

/** POST /api/organizations/{id}/licenses. Defaults of SPEC.md §5; valid-from defaults to today (server's UTC day). */
export const licenseRequestSchema = strictBody({
  license_name: licenseName,
  license_scope: z.enum(LICENSE_SCOPES).default('EVALUATION'),
  date_valid_from: instant.optional(),
  days_valid: daysValid.default(20),
  note,
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
  date_valid_from: instant.optional(),
  days_valid: daysValid.optional(),
  note,
}, licenseSchema);

/**
 * ?version= of reject, renew and acknowledge-expiry: the version the caller saw, in decimal digits
 * (a number coerced from text would take `version=` for 0 and `0x1` for 1).
 */
export const versionQuery = z.object({ version: z.string().regex(/^\d{1,15}$/, 'the version you saw, a whole number').transform(Number) });
