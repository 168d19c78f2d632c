import { z } from 'zod';
import { abilitiesOf } from './abilities';
import { strictBody } from './body';
import { sortParam } from './lists';
import { RESOURCE_SORTS, type SortOf } from '../sorts';
import { text } from './text';
import { RESOURCE_ACCESS, RESOURCE_TYPES } from '../enums';

/**
 * A gateway path pattern: absolute, segments of URL-safe characters, `*` within a segment and
 * `**` for any number of segments; no empty segments and no `.` or `..` segments.
 */
const PATH_PATTERN = /^(\/(\*\*|[A-Za-z0-9._~\-*{},]+))+\/?$/;

function isPathPattern(value: string): boolean {
  return PATH_PATTERN.test(value) && !value.split('/').some((segment) => segment === '.' || segment === '..');
}

/**
 * `value` with percent-encoding decoded again and again until none is left (`%252e` is `%2e` is
 * `.`), or null when a run of `%XX` is not UTF-8 (an overlong `%c0%ae` for `.` among them).
 * A `%` not followed by two hex digits stays as it is.
 */
function percentDecoded(value: string): string | null {
  let current = value;
  for (;;) {
    let next: string;
    try {
      next = current.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => decodeURIComponent(run));
    } catch {
      return null;
    }
    // Each pass that changes something makes the text shorter, so this ends.
    if (next === current) return current;
    current = next;
  }
}

/**
 * Why `value` is not an acceptable resource location, or null: absolute; no `..` segment, also
 * not once percent-encoding is decoded (`/srv/%2e%2e/etc`) nor with `\` taken as a separator
 * (`/srv/..\etc`); no control characters, encoded or not.
 */
function locationProblem(value: string): string | null {
  if (!value.startsWith('/')) return 'must be an absolute server path, starting with /';
  const decoded = percentDecoded(value);
  if (decoded === null) return 'has percent-encoding (%XX) that is not UTF-8';
  if (/[\u0000-\u001f\u007f-\u009f]/.test(decoded)) return 'must not contain control characters, also not percent-encoded ones';
  if (decoded.split(/[/\\]/).includes('..')) return 'must not contain a .. segment, also not percent-encoded (%2e%2e) or between backslashes';
  return null;
}

/** An absolute server path without `..` segments (see locationProblem). */
export function isAbsoluteLocation(value: string): boolean {
  return locationProblem(value) === null;
}

const resourceOrganizationSchema = z.object({ organization_id: z.string(), organization_name: z.string() });

/** SPEC.md §3 "Resource". */
export const resourceSchema = z.object({
  resource_id: z.string(),
  ordinal: z.number().int(),
  resource_name: z.string(),
  resource_type: z.enum(RESOURCE_TYPES),
  resource_access: z.enum(RESOURCE_ACCESS),
  path_pattern: z.string(),
  location: z.string().nullable().describe('The absolute server path; null for callers who may not manage resources (common/policy.ts "resource.manage").'),
  description: z.string().nullable(),
  organizations: z.array(resourceOrganizationSchema).describe(
    'The organizations a RESTRICTED resource is granted to. Callers who may not manage resources see at most the organization they look at (the path\'s, or their own in the catalogue).',
  ),
  abilities: abilitiesOf('resource'),
});
export type Resource = z.infer<typeof resourceSchema>;

export type ResourceSort = SortOf<(typeof RESOURCE_SORTS)[number]>;

/** GET /api/resources?filter&sort and GET /api/organizations/{id}/resources?sort: the whole list, not paged. */
export const resourceListQuery = z.object({
  filter: text().max(200).optional(),
  sort: sortParam(RESOURCE_SORTS),
});
export const organizationResourceListQuery = resourceListQuery.pick({ sort: true });

/** Create and update payload; the server makes `resource_id` and ignores `organizations` here. */
export const resourceInputSchema = strictBody({
  ordinal: z.number().int().min(1).max(1_000_000).optional(),
  resource_name: text().trim().min(1, 'is required').max(200),
  resource_type: z.enum(RESOURCE_TYPES),
  resource_access: z.enum(RESOURCE_ACCESS),
  path_pattern: text().trim().max(500).refine(isPathPattern, 'must be an absolute path pattern such as /packages/linux/** (no empty, . or .. segments)'),
  // NFC: HCL reads strings in NFC, so the gateway gets the location as stored (docs/decisions.md).
  location: text().trim().normalize('NFC').max(1000).superRefine((value, ctx) => {
    const problem = locationProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  }),
  description: text().max(2000).nullable().optional(),
}, resourceSchema);
export type ResourceInput = z.infer<typeof resourceInputSchema>;
