/** Where an organization path stands: its section, and the same screen for another organization. */
import { ORGANIZATION_SECTIONS, organizationPath } from '../lib/navigation';

const ORGANIZATION_PATH = /^\/organizations\/([^/]+)(?:\/([^/]+))?/;

/** The section (first segment after the orgId) of an organization path, if any. */
export function sectionOf(pathname: string): string | null {
  return ORGANIZATION_PATH.exec(pathname)?.[2] ?? null;
}

/**
 * The same screen for another organization: the :orgId segment replaced. Only the section is
 * kept: a details page (a certificate's DN, a member id) belongs to the previous organization
 * and would not be found in the new one.
 */
export function switchOrganizationPath(pathname: string, organizationId: string): string {
  const section = ORGANIZATION_SECTIONS.find((s) => s.path === sectionOf(pathname));
  return organizationPath(organizationId, section?.path);
}
