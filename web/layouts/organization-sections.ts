/** Where an organization path stands: its section, and the same screen for another organization. */
import type { Action } from '../../common/policy';
import type { Organization } from '../../common/schemas/organization';
import { ORGANIZATION_SECTIONS, organizationPath } from '../lib/navigation';

const ORGANIZATION_PATH = /^\/organizations\/([^/]+)(?:\/([^/]+))?/;

/**
 * Sections after the ones every member sees, each for those whose roles allow its action in the
 * organization (its `abilities`, computed by the server).
 */
const GATED_SECTIONS: readonly { path: string; label: string; action: Action }[] = [
  { path: 'notifications', label: 'Notifications', action: 'notifications.manage' },
  { path: 'api-keys', label: 'API keys', action: 'apiKey.manage' },
  { path: 'access-review', label: 'Access review', action: 'access.review' },
  // Those who consent to vendor support, or ask for it, hold one of these roles (the page says what each may do).
  { path: 'support-access', label: 'Support access', action: 'access.review' },
];

/** The sections of an organization the caller sees in the sidebar, in order. */
export function sectionsFor(organization: Pick<Organization, 'abilities'> | null): { path: string; label: string }[] {
  return [...ORGANIZATION_SECTIONS, ...GATED_SECTIONS.filter((section) => !!organization?.abilities.includes(section.action))];
}

/** The section (first segment after the orgId) of an organization path, if any. */
export function sectionOf(pathname: string): string | null {
  return ORGANIZATION_PATH.exec(pathname)?.[2] ?? null;
}

/** The section of this path as the sidebar and breadcrumb name it, gated or not. */
export function sectionAt(pathname: string): { path: string; label: string } | undefined {
  const path = sectionOf(pathname);
  return [...ORGANIZATION_SECTIONS, ...GATED_SECTIONS].find((s) => s.path === path);
}

/**
 * The same screen for another organization: the :orgId segment replaced. Only the section is
 * kept, and only one the caller sees there: a details page (a certificate's DN, a member id)
 * belongs to the previous organization and would not be found in the new one.
 */
export function switchOrganizationPath(pathname: string, organization: Pick<Organization, 'organization_id' | 'abilities'>): string {
  const section = sectionsFor(organization).find((s) => s.path === sectionOf(pathname));
  return organizationPath(organization.organization_id, section?.path);
}
