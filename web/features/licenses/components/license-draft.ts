/**
 * The editable fields of a license as a form holds them (SPEC.md §2 "/licenses/new" and the
 * details before approval), and their conversion to what the API takes. Valid-from is a calendar
 * day (YYYY-MM-DD, the date picker's value) sent as the instant of the viewer's local midnight
 * (docs/decisions.md "Licenses").
 */
import type { LicenseScope } from '../../../../common/enums';
import type { License, LicenseRequest } from '../../../../common/schemas/license';
import { formatMachineDate, parseMachineDate } from '../../../../common/dates';
import { licenseValidUntil } from '../../../../common/status';

export interface LicenseDraft {
  license_name: string;
  license_scope: LicenseScope;
  /** YYYY-MM-DD in the viewer's zone. */
  valid_from: string;
  /** '' while the box is empty. */
  days_valid: number | '';
  note: string;
}

export type DraftErrors = Partial<Record<keyof LicenseDraft, string>>;

/** SPEC.md §5: scope EVALUATION, valid from today, 20 days. */
export const DEFAULT_DAYS_VALID = 20;

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
export function validFromInstant(day: string): string | null {
  return parseMachineDate(day)?.toISOString() ?? null;
}

/** The exclusive end of the window the draft describes, when it describes one. */
export function draftValidUntil(draft: LicenseDraft): string | null {
  const from = validFromInstant(draft.valid_from);
  return from && typeof draft.days_valid === 'number' ? licenseValidUntil(from, draft.days_valid) : null;
}

export function toRequest(draft: LicenseDraft): LicenseRequest {
  return {
    license_name: draft.license_name,
    license_scope: draft.license_scope,
    date_valid_from: validFromInstant(draft.valid_from) ?? draft.valid_from,
    // NaN fails the schema's "whole number" check with its own message.
    days_valid: draft.days_valid === '' ? Number.NaN : draft.days_valid,
    note: draft.note.trim() ? draft.note : null,
  };
}

/**
 * The license as the approver edited it (the approve call's body). An untouched day keeps the
 * stored instant: it need not be the approver's local midnight (a request from another zone, a
 * renewal's UTC day), and approving should not move the window by the difference.
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
  };
}

const FIELDS: Record<string, keyof LicenseDraft> = {
  license_name: 'license_name',
  license_scope: 'license_scope',
  date_valid_from: 'valid_from',
  days_valid: 'days_valid',
  note: 'note',
};

const sentence = (text: string) => text.charAt(0).toUpperCase() + text.slice(1) + (text.endsWith('.') ? '' : '.');

/** The schema's issues as one message per form field. */
export function errorsOf(issues: readonly { path: PropertyKey[]; message: string }[]): DraftErrors {
  const errors: DraftErrors = {};
  for (const issue of issues) {
    const field = FIELDS[String(issue.path[0])];
    if (field && !errors[field]) errors[field] = sentence(issue.message);
  }
  return errors;
}
