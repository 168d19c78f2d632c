/**
 * Which field of a form a server's 400 (or 409 about a taken value) is about (docs/decisions.md "Forms"), without React, the
 * DOM or Mantine, so that it is tested on its own (form-errors.test.ts). The error body is the one
 * of common/schemas/error.ts: `field` is the body's path (`domains.3` is the fourth of `domains`).
 */

/** Server field names (or their first segments) that a form calls otherwise: `{ date_valid_from: 'valid_from', groups: 'group' }`. */
export type FieldAliases = Readonly<Record<string, string>>;

/** A message as a sentence under its field: zod's "at most 200 characters" reads "At most 200 characters.". */
export function sentence(message: string): string {
  const text = message.trim();
  if (!text) return text;
  return text.charAt(0).toUpperCase() + text.slice(1) + (/[.!?]$/.test(text) ? '' : '.');
}

/** Whether `values` has a value (even null or '') at the dotted `path`. */
function hasPath(values: unknown, path: string): boolean {
  let current = values;
  for (const key of path.split('.')) {
    if (typeof current !== 'object' || current === null || !Object.hasOwn(current, key)) return false;
    current = (current as Record<string, unknown>)[key];
  }
  return true;
}

/**
 * The form's path for the server's `field`: the longest leading part of it that the form has,
 * under its own name or its alias. `domains.3` lands on a form's one `domains` text, `groups.0`
 * on `group` with `{ groups: 'group' }`; null when the form has no such field.
 */
export function formPathOf(field: string, values: unknown, aliases: FieldAliases = {}): string | null {
  const parts = field.split('.');
  for (let length = parts.length; length > 0; length--) {
    const name = parts.slice(0, length).join('.');
    const path = Object.hasOwn(aliases, name) ? aliases[name] : name;
    if (hasPath(values, path)) return path;
  }
  return null;
}

/** A failed call as lib/api.ts's ApiError has it. */
export interface FailedCall {
  status: number;
  body: unknown;
}

/**
 * The form field and message of a 400 (bad input) or 409 (a taken value) whose body names a field
 * the form has; null for any other failure (it stays a toast, lib/api.ts).
 */
export function serverFieldError(failure: FailedCall, values: unknown, aliases?: FieldAliases): { path: string; message: string } | null {
  if ((failure.status !== 400 && failure.status !== 409) || typeof failure.body !== 'object' || failure.body === null) return null;
  const { field, message } = failure.body as { field?: unknown; message?: unknown };
  if (typeof field !== 'string' || !field || typeof message !== 'string' || !message) return null;
  const path = formPathOf(field, values, aliases);
  return path ? { path, message: sentence(message) } : null;
}
