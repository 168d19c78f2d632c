import { z } from 'zod';

/**
 * Text people type (docs/decisions.md "Platform"): any Unicode character but control characters
 * (Unicode Cc: U+0000–U+001F, U+007F–U+009F) other than tab and line feed, and no unpaired UTF-16
 * surrogate. PostgreSQL refuses U+0000 in text (a 500 instead of a 400), SQLite stores it, the
 * journal, exports and screens would show the others as garbage, and a lone surrogate has no UTF-8
 * form (both databases would keep U+FFFD instead of what was sent).
 */
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;
const LONE_SURROGATE = /\p{Cs}/u;

const codePoint = (char: string) => `U+${char.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;

/** Why `value` is not acceptable text, or null. */
function textProblem(value: string): string | null {
  const control = CONTROL.exec(value);
  if (control) return `must not contain control characters (found ${codePoint(control[0])}; tab and line feed are allowed)`;
  const surrogate = LONE_SURROGATE.exec(value);
  if (surrogate) return `is not valid Unicode text (an unpaired surrogate ${codePoint(surrogate[0])})`;
  return null;
}

export const isPlainText = (value: string): boolean => textProblem(value) === null;

/**
 * A string of free text, refused with a 400 naming the field when it holds what `textProblem`
 * refuses. The one schema for every text input (bodies, queries, path ids); chain `.trim()`,
 * `.min()`, `.max()`... after it, so the check sees the text as sent.
 */
export const text = () =>
  z.string().superRefine((value, ctx) => {
    const problem = textProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

/** A path or query id (organization, member, license, resource): 1 to `max` characters of text. */
export const idText = (max = 100) => text().min(1).max(max);
