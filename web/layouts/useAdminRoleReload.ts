/**
 * The admin guard of SPEC.md §2: under /admin, when the member's own organization is not the
 * selected one, their roles are loaded again from GET /api/auth/callback, so the admin screens
 * go by the member's own assignments and not by what was last seen for another organization.
 */
import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { profileQueryOptions } from '../features/auth/api/get-profile';
import { session, useSession } from '../lib/session';

export function useAdminRoleReload(): void {
  const { pathname } = useLocation();
  const { profile, organization } = useSession();
  const queryClient = useQueryClient();
  const differs = !!profile && profile.organization_id !== organization?.organization_id;

  useEffect(() => {
    if (!differs) return;
    let cancelled = false;
    queryClient
      .fetchQuery(profileQueryOptions())
      .then((fresh) => {
        if (!cancelled && fresh) session.setProfile(fresh);
      })
      .catch(() => undefined); // lib/api.ts has shown the failure
    return () => {
      cancelled = true;
    };
  }, [pathname, differs, queryClient]);
}
