/**
 * Keeps the current organization in step with the :orgId of the URL: a deep link or a bookmark
 * to another organization loads it (with the caller's roles there) and makes it the current one.
 */
import { useEffect } from 'react';
import { useParams } from 'react-router';
import { useOrganization } from '../api/get-organization';
import { session, useCurrentOrganization } from '../lib/session';

export function useOrganizationFromPath(): void {
  const { orgId } = useParams();
  const current = useCurrentOrganization();
  const stale = !!orgId && orgId !== current?.organization_id;
  const { data } = useOrganization(stale ? orgId : undefined);

  useEffect(() => {
    if (stale && data && data.organization_id === orgId) session.setOrganization(data);
  }, [stale, data, orgId]);
}
