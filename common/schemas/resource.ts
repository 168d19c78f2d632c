import { z } from 'zod';
import { RESOURCE_ACCESS, RESOURCE_TYPES } from '../enums';

/**
 * A gateway path pattern: absolute, segments of URL-safe characters, `*` within a segment and
 * `**` for any number of segments; no empty segments and no `.` or `..` segments.
 */
export const PATH_PATTERN = /^(\/(\*\*|[A-Za-z0-9._~\-*{},]+))+\/?$/;

export function isPathPattern(value: string): boolean {
  return PATH_PATTERN.test(value) && !value.split('/').some((segment) => segment === '.' || segment === '..');
}

/** An absolute server path without `..` segments. */
export function isAbsoluteLocation(value: string): boolean {
  return value.startsWith('/') && !value.split('/').includes('..') && !/[\0\n\r]/.test(value);
}

export const resourceOrganizationSchema = z.object({ organization_id: z.string(), organization_name: z.string() });

/** SPEC.md §3 "Resource". */
export const resourceSchema = z.object({
  resource_id: z.string(),
  ordinal: z.number().int(),
  resource_name: z.string(),
  resource_type: z.enum(RESOURCE_TYPES),
  resource_access: z.enum(RESOURCE_ACCESS),
  path_pattern: z.string(),
  location: z.string(),
  description: z.string().nullable(),
  organizations: z.array(resourceOrganizationSchema),
});
export type Resource = z.infer<typeof resourceSchema>;

/** Create and update payload; the server makes `resource_id` and ignores `organizations` here. */
export const resourceInputSchema = z.object({
  ordinal: z.number().int().min(1).max(1_000_000).optional(),
  resource_name: z.string().trim().min(1, 'is required').max(200),
  resource_type: z.enum(RESOURCE_TYPES),
  resource_access: z.enum(RESOURCE_ACCESS),
  path_pattern: z.string().trim().max(500).refine(isPathPattern, 'must be an absolute path pattern such as /packages/linux/** (no empty, . or .. segments)'),
  location: z.string().trim().max(1000).refine(isAbsoluteLocation, 'must be an absolute server path without ..'),
  description: z.string().max(2000).nullable().optional(),
});
export type ResourceInput = z.infer<typeof resourceInputSchema>;
