/**
 * Keeps the current organization in step with the :orgId of the URL: a deep link or a bookmark
 * to another organization loads it (with the caller's roles there) and makes it the current one.
 * Answers whether the URL's organization was not found (unknown, or not the caller's: the server
 * answers 404 for both), for the layout to show components/NotFound instead of the page.
 */
import { useEffect } from 'react';
import { useParams } from 'react-router';
import { useOrganization } from '../api/get-organization';
import { session, useCurrentOrganization } from '../lib/session';

export function useOrganizationFromPath(): { notFound: boolean } {
  const { orgId } = useParams();
  const current = useCurrentOrganization();
  const stale = !!orgId && orgId !== current?.organization_id;
  const { data, isError } = useOrganization(stale ? orgId : undefined);

  useEffect(() => {
    if (stale && data && data.organization_id === orgId) session.setOrganization(data);
  }, [stale, data, orgId]);
  return { notFound: stale && isError };
}
