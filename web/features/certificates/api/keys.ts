/**
 * Query keys and API paths of the certificate calls. Every mutation invalidates under
 * `certificateKeys.all`, so lists and details never show a state the server has moved on from.
 */
import type { CertificateListQuery as ListQuery } from '../../../../common/schemas/lists';

/** The list's query as the web app sends it: the status chips as one comma-separated text. */
export type CertificateListQuery = Partial<Omit<ListQuery, 'status'>> & { status?: string };

export const certificateKeys = {
  all: ['certificates'] as const,
  lists: () => [...certificateKeys.all, 'list'] as const,
  /** `organizationId` null: the admin list across organizations. */
  list: (organizationId: string | null, query: CertificateListQuery) =>
    [...certificateKeys.lists(), organizationId ?? 'all', query] as const,
  detail: (organizationId: string, dn: string) => [...certificateKeys.all, 'detail', organizationId, dn] as const,
};

/** DNs hold commas, slashes, spaces and non-ASCII letters: always one encoded path segment. */
export const organizationCertificatesPath = (organizationId: string) =>
  `/api/organizations/${encodeURIComponent(organizationId)}/certificates`;

export const certificatePath = (organizationId: string, dn: string) =>
  `${organizationCertificatesPath(organizationId)}/${encodeURIComponent(dn)}`;

/** Which certificate a mutation acts on. */
export interface CertificateRef {
  organizationId: string;
  dn: string;
}
