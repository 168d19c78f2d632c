/**
 * API calls that several features and the layouts share live in web/api/: features do not import
 * each other (STYLE.md "Front-end features"), and an organization, the list of organizations and
 * an organization's resources are read by the Self-Service page, the sidebar, the sign-in flow,
 * the resources page and the admin screens alike. One call and one query key each, so every
 * reader shares one cache entry and every change (admin mutations) shows everywhere.
 */
import type { OrganizationSort } from '../../common/schemas/organization';

export interface OrganizationListQuery {
  filter?: string;
  sort?: OrganizationSort;
  offset?: number;
  limit?: number;
}

export const organizationKeys = {
  all: ['organizations'] as const,
  lists: () => [...organizationKeys.all, 'list'] as const,
  list: (query: OrganizationListQuery) => [...organizationKeys.lists(), query] as const,
  detail: (organizationId: string) => [...organizationKeys.all, 'detail', organizationId] as const,
  /** What the organization may use; resource changes invalidate it (admin/resources/api/invalidate.ts). */
  resources: (organizationId: string) => [...organizationKeys.all, organizationId, 'resources'] as const,
};

export const organizationPath = (organizationId: string) => `/api/organizations/${encodeURIComponent(organizationId)}`;
