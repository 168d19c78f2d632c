/** GET /api/auth/callback: the signed-in member's profile (SPEC.md §7). */
import { queryOptions } from '@tanstack/react-query';
import type { Profile } from '../../../../common/schemas/profile';
import { api } from '../../../lib/api';

export function getProfile(): Promise<Profile | null> {
  return api<Profile | null>('/api/auth/callback');
}

export const profileQueryOptions = () =>
  queryOptions({ queryKey: ['profile'], queryFn: getProfile, staleTime: 0, gcTime: 0 });
