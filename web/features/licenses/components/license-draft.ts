/**
 * The editable fields of a license as a form holds them (SPEC.md §2 "/licenses/new" and the
 * details before approval), and their conversion to what the API takes. Valid-from is a calendar
 * day (YYYY-MM-DD, the date picker's value) sent as the instant of the viewer's local midnight
 * (docs/decisions.md "Licenses"). The draft is checked with the body's own field schemas
 * (draftSchemaOf, lib/forms.ts).
 */
import { z } from 'zod';
import type { LicenseScope } from '../../../../common/enums';
import { licenseApprovalSchema, licenseRequestSchema, type License, type LicenseRequest } from '../../../../common/schemas/license';
import { formatMachineDate, parseMachineDate } from '../../../../common/dates';
import { DEFAULT_TIME_ZONE, licenseValidUntil, localTimeZone } from '../../../../common/zones';
import type { FieldAliases } from '../../../lib/form-errors';
import { numberInput } from '../../../lib/forms';

export interface LicenseDraft {
  license_name: string;
  license_scope: LicenseScope;
  /** YYYY-MM-DD in the viewer's zone. */
  valid_from: string;
  /** '' while the box is empty. */
  days_valid: number | '';
  note: string;
}

/** SPEC.md §5: scope EVALUATION, valid from today, 20 days. */
const DEFAULT_DAYS_VALID = 20;

export function newDraft(today = new Date()): LicenseDraft {
  return { license_name: '', license_scope: 'EVALUATION', valid_from: formatMachineDate(today), days_valid: DEFAULT_DAYS_VALID, note: '' };
}

export function draftOf(license: License): LicenseDraft {
  return {
    license_name: license.license_name,
    license_scope: license.license_scope,
    valid_from: formatMachineDate(license.date_valid_from),
    days_valid: license.days_valid,
    note: license.note ?? '',
  };
}

/** The ISO instant of the local midnight of the chosen day, or null without a real date. */
function validFromInstant(day: string): string | null {
  return parseMachineDate(day)?.toISOString() ?? null;
}

/**
 * The exclusive end of the window the draft describes, when it describes one, as the server will
 * count it (server/modules/licenses/days.ts): calendar days in the viewer's zone from the day picked,
 * or, for a license whose day is left as it is, in the license's zone from its stored start.
 */
export function draftValidUntil(draft: LicenseDraft, license?: License): string | null {
  // No last valid day for days the form refuses (0, -5, 1.5, 1000000): it would read as if they were taken.
  if (typeof draft.days_valid !== 'number' || !daysValidSchema.safeParse(draft.days_valid).success) return null;
  if (license && draft.valid_from === formatMachineDate(license.date_valid_from)) {
    return licenseValidUntil(license.date_valid_from, draft.days_valid, license.time_zone);
  }
  const from = validFromInstant(draft.valid_from);
  return from ? licenseValidUntil(from, draft.days_valid, localTimeZone() ?? DEFAULT_TIME_ZONE) : null;
}

/** The request: the day picked as the instant of its local midnight, and the zone its days count in (the viewer's). */
export function toRequest(draft: LicenseDraft): LicenseRequest {
  return {
    license_name: draft.license_name,
    license_scope: draft.license_scope,
    date_valid_from: validFromInstant(draft.valid_from) ?? draft.valid_from,
    // Never sent: an empty box fails the draft's check first (and NaN the schema's).
    days_valid: draft.days_valid === '' ? Number.NaN : draft.days_valid,
    note: draft.note.trim() ? draft.note : null,
    time_zone: localTimeZone(),
  };
}

/**
 * The license as the approver edited it (the approve call's body). An untouched day keeps the
 * stored instant: it need not be the approver's local midnight (a request from another zone, a
 * renewal's UTC day), and approving should not move the window by the difference; the server then
 * keeps the license's zone. A moved day is the approver's midnight, counted in the approver's zone.
 */
export function toApproval(license: License, draft: LicenseDraft): License {
  const request = toRequest(draft);
  const sameDay = draft.valid_from === formatMachineDate(license.date_valid_from);
  return {
    ...license,
    license_name: request.license_name,
    license_scope: request.license_scope ?? license.license_scope,
    date_valid_from: sameDay ? license.date_valid_from : (request.date_valid_from ?? license.date_valid_from),
    days_valid: request.days_valid ?? license.days_valid,
    note: request.note ?? null,
    time_zone: sameDay ? license.time_zone : (request.time_zone ?? DEFAULT_TIME_ZONE),
  };
}

/**
 * The draft's schema, made of the field schemas of the body it becomes (the request, or the
 * approval): the same rules and messages as the server's. The picked day (YYYY-MM-DD) is an ISO
 * date the body's instant schema reads as well; an empty Days valid box is refused, not defaulted.
 */
function draftSchemaOf(body: typeof licenseRequestSchema | typeof licenseApprovalSchema) {
  const fields = body.in.shape;
  return z.object({
    license_name: fields.license_name,
    license_scope: fields.license_scope,
    valid_from: fields.date_valid_from,
    days_valid: numberInput(fields.days_valid, { required: true }),
    note: fields.note,
  });
}

/** Days valid's own rule (1 to 3650 whole days), for the field's message while typing and the last-day hint. */
export const daysValidSchema = licenseRequestSchema.in.shape.days_valid.unwrap();

export const requestDraftSchema = draftSchemaOf(licenseRequestSchema);
export const approvalDraftSchema = draftSchemaOf(licenseApprovalSchema);

/** The body's names the draft calls otherwise, for a server 400's `field`. */
export const DRAFT_FIELDS: FieldAliases = { date_valid_from: 'valid_from' };
