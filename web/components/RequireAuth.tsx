/**
 * Sign-in is required on load (SPEC.md §4): without a signed-in member, remember where the
 * person wanted to go and send them to Welcome, which signs in and comes back.
 */
import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { PATHS } from '../lib/navigation';
import { session, useProfile } from '../lib/session';

export function RequireAuth({ children }: { children: ReactNode }) {
  const profile = useProfile();
  const location = useLocation();
  if (!profile) {
    session.setReturnUrl(`${location.pathname}${location.search}${location.hash}`);
    return <Navigate to={PATHS.login} replace />;
  }
  return children;
}
