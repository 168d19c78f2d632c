/**
 * Query keys and API paths of the license calls. Every change invalidates under
 * `licenseKeys.all`, so lists and details never show a state the server has moved on from
 * (an approval also changes the badge of the license it extends).
 */
import type { LicenseListQuery as ListQuery } from '../../../../common/schemas/lists';

/** The list's query as the web app sends it: the status chips as one comma-separated text. */
export type LicenseListQuery = Partial<Omit<ListQuery, 'status'>> & { status?: string };

export const licenseKeys = {
  all: ['licenses'] as const,
  lists: () => [...licenseKeys.all, 'list'] as const,
  /** `organizationId` null: the admin list across organizations. */
  list: (organizationId: string | null, query: LicenseListQuery) =>
    [...licenseKeys.lists(), organizationId ?? 'all', query] as const,
  detail: (licenseId: string) => [...licenseKeys.all, 'detail', licenseId] as const,
  key: (licenseId: string) => [...licenseKeys.all, 'license-key', licenseId] as const,
};

export const organizationLicensesPath = (organizationId: string) =>
  `/api/organizations/${encodeURIComponent(organizationId)}/licenses`;

export const licensePath = (licenseId: string) => `/api/licenses/${encodeURIComponent(licenseId)}`;

/** Which license a versioned action (reject, renew, acknowledge) acts on, and the version seen. */
export interface LicenseRef {
  licenseId: string;
  version: number;
}
