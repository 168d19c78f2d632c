/**
 * The organization of an /organizations/:orgId/... page: its id from the URL, and the
 * organization itself once the layout has made it the current one.
 */
import { useParams } from 'react-router';
import type { Organization } from '../../common/schemas/organization';
import { useCurrentOrganization } from '../lib/session';

export function useRouteOrganization(): { orgId: string; organization: Organization | null } {
  const { orgId = '' } = useParams();
  const current = useCurrentOrganization();
  return { orgId, organization: current?.organization_id === orgId ? current : null };
}
