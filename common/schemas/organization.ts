import { z } from 'zod';
import { abilitiesOf } from './abilities';
import { strictBody } from './body';
import { sortParam } from './lists';
import { ORGANIZATION_SORTS, type SortOf } from '../sorts';
import { idText, text } from './text';
import { ORGANIZATION_ROLES, ROLES, SCOPES } from '../enums';

/** The caller's role assignments that apply to an organization. */
const appliedRoleSchema = z.object({
  organization_id: z.string(),
  role: z.enum(ROLES),
  scope: z.enum(SCOPES),
});

/** SPEC.md §3 "Organization". */
export const organizationSchema = z.object({
  organization_id: z.string(),
  organization_name: z.string(),
  organization_role: z.enum(ORGANIZATION_ROLES),
  parent_organization: z.string().nullable(),
  parent_organization_name: z.string().nullable(),
  website: z.string().nullable(),
  logo_url: z.string().nullable(),
  address: z.string().nullable(),
  domains: z.array(z.string()),
  ban_note: z.string().nullable(),
  date_organization_banned: z.string().nullable(),
  roles: z.array(appliedRoleSchema),
  abilities: abilitiesOf('organization'),
});
export type Organization = z.infer<typeof organizationSchema>;

export type OrganizationSort = SortOf<(typeof ORGANIZATION_SORTS)[number]>;

export const organizationListQuery = z.object({
  filter: text().max(200).optional(),
  offset: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
  sort: sortParam(ORGANIZATION_SORTS),
});
/** GET /api/organizations.csv: the list's filter and order, every row. */
export const organizationExportQuery = organizationListQuery.omit({ offset: true, limit: true });

/** Free text of a form: trimmed, and an empty text means "none" (null). */
export const optionalText = (max: number) =>
  text()
    .max(max, `at most ${max} characters`)
    .transform((s) => s.trim() || null)
    .nullable()
    .optional();

// Labels of 1-63 letters, digits or inner hyphens; at least two labels; the last starts with a letter.
const DOMAIN_NAME = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** One typed domain: lower case, a leading `@` or trailing dot forgiven, non-ASCII names as punycode. */
function normalizeDomain(text: string): string | null {
  let domain = text.trim().toLowerCase().replace(/^@/, '').replace(/\.$/, '');
  if (/[^\x00-\x7f]/.test(domain)) {
    try {
      // URL applies IDNA in the browser and in Node alike: "bücher.example" -> "xn--bcher-kva.example".
      domain = new URL(`http://${domain}`).hostname;
    } catch {
      return null;
    }
  }
  return DOMAIN_NAME.test(domain) ? domain : null;
}

/**
 * Trusted domains (SPEC.md §5): an array, or one text split on commas or whitespace; each entry
 * validated as a domain name, lower-cased, duplicates dropped, in the order given.
 */
export function parseDomains(value: string | readonly string[]): { domains: string[]; invalid: string[] } {
  const parts = (typeof value === 'string' ? [value] : value).flatMap((v) => v.split(/[\s,]+/)).filter(Boolean);
  const domains: string[] = [];
  const invalid: string[] = [];
  for (const part of parts) {
    const domain = normalizeDomain(part);
    if (!domain) invalid.push(part);
    else if (!domains.includes(domain)) domains.push(domain);
  }
  return { domains, invalid };
}

const domainsInput = z
  .union([text().max(10_000), z.array(text().max(300)).max(200)])
  .transform((value, ctx) => {
    const { domains, invalid } = parseDomains(value);
    if (invalid.length > 0) ctx.addIssue({ code: 'custom', message: `not a domain name: ${invalid.slice(0, 5).join(', ')}` });
    else if (domains.length > 100) ctx.addIssue({ code: 'custom', message: 'at most 100 domains' });
    return domains;
  });

/** Website links get an https:// prefix when no scheme is given (SPEC.md §5); null when not a web address. */
export function normalizeWebsite(text: string): string | null {
  const trimmed = text.trim();
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `https://${trimmed}`;
  return isWebAddress(withScheme, ['http:', 'https:']) ? withScheme : null;
}

function isWebAddress(text: string, protocols: string[]): boolean {
  try {
    const url = new URL(text);
    // A host with a dot: "https://contoso" is a valid URL but no public web address.
    return protocols.includes(url.protocol) && url.hostname.includes('.') && !url.username && !url.password;
  } catch {
    return false;
  }
}

const websiteInput = text()
  .max(2000, 'at most 2000 characters')
  .transform((value, ctx) => {
    if (!value.trim()) return null;
    const website = normalizeWebsite(value);
    if (!website) ctx.addIssue({ code: 'custom', message: 'not a web address' });
    return website;
  })
  .nullable()
  .optional();

/** The logo is shown on every page; the CSP lets images come only from https: sources. */
const logoInput = text()
  .max(2000, 'at most 2000 characters')
  .transform((value, ctx) => {
    const trimmed = value.trim();
    if (!trimmed) return null;
    if (!isWebAddress(trimmed, ['https:'])) ctx.addIssue({ code: 'custom', message: 'an https:// URL or empty' });
    return trimmed;
  })
  .nullable()
  .optional();

const organizationName = text().trim().min(1, 'required').max(200, 'at most 200 characters');

const editableFields = {
  website: websiteInput,
  logo_url: logoInput,
  address: optionalText(1000),
  domains: domainsInput.optional(),
  /** Applies to CUSTOMER organizations only (SPEC.md §5); see docs/decisions.md. */
  parent_organization: idText().nullable().optional(),
};

/** POST /api/organizations. A new organization is a CUSTOMER (default) or a PARTNER, never OPERATOR. */
export const organizationCreateSchema = strictBody({
  organization_name: organizationName,
  organization_role: z.enum(['CUSTOMER', 'PARTNER'], { error: 'a new organization is a CUSTOMER or a PARTNER' }).default('CUSTOMER'),
  ...editableFields,
});
export type OrganizationCreate = z.output<typeof organizationCreateSchema>;

/**
 * PUT /api/organizations/{id}: the organization as GET returns it; fields left out stay as they
 * are, other fields of the organization (roles, ban) are ignored. The role cannot change.
 */
export const organizationUpdateSchema = strictBody({
  organization_name: organizationName.optional(),
  organization_role: z.enum(ORGANIZATION_ROLES).optional(),
  ...editableFields,
}, organizationSchema);
export type OrganizationUpdate = z.output<typeof organizationUpdateSchema>;

/** POST .../ban?note, for organizations and members alike. */
export const banQuery = z.object({
  note: text().max(1000, 'at most 1000 characters').optional(),
});
