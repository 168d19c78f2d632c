/**
 * The Certificates page's first request, asked for by the router as the page's code loads
 * (web/router.tsx), so the list arrives with the code instead of after the first render.
 */
import { CERTIFICATE_SORTS } from '../../../../common/sorts';
import { statusListRequest } from '../../../components/useListSearch';
import { storedPageSize } from '../../../lib/preferences';
import { queryClient } from '../../../lib/query';
import { certificatesQueryOptions } from './get-certificates';

export function prefetchCertificates(organizationId: string, search: URLSearchParams): Promise<void> {
  return queryClient.prefetchQuery(certificatesQueryOptions(organizationId, statusListRequest(search, storedPageSize(), CERTIFICATE_SORTS, 'certificates')));
}
