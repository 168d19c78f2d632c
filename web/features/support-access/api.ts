/**
 * Vendor support access (issue 33 item 2): an organization's requests and setting, the accesses that run there (the
 * banners), the support person's own requests; request, approve, deny, end, save the setting. A change makes every
 * support-access answer stale, and the organization's too (an access changes what its people see).
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import type { ActiveSupport, SupportRequest, SupportRequestBody, SupportSettings, mySupportSchema, supportListSchema } from '../../../common/schemas/support-access';
import { api } from '../../lib/api';

const base = (organizationId: string) => `/api/organizations/${encodeURIComponent(organizationId)}/support-access`;
const KEY = ['support-access'] as const;

export type SupportList = z.infer<typeof supportListSchema>;
export type MySupport = z.infer<typeof mySupportSchema>;

const listQuery = (organizationId: string) =>
  queryOptions({ queryKey: [...KEY, 'list', organizationId], queryFn: ({ signal }) => api<SupportList>(base(organizationId), { signal }), staleTime: 0 });

export const useSupportList = (organizationId: string) => useQuery({ ...listQuery(organizationId), enabled: !!organizationId });

/** The accesses that run now, refetched each minute and when the window comes back: a banner must not outlive its access. */
export const useActiveSupport = (organizationId: string | undefined) =>
  useQuery({
    queryKey: [...KEY, 'active', organizationId],
    queryFn: ({ signal }) => api<{ items: ActiveSupport[] }>(`${base(organizationId!)}/active`, { signal }).then((r) => r.items),
    enabled: !!organizationId,
    staleTime: 0,
    refetchInterval: 60_000,
    retry: false,
  });

export const useMySupport = () =>
  useQuery({ queryKey: [...KEY, 'mine'], queryFn: ({ signal }) => api<MySupport>('/api/support-access', { signal }), staleTime: 0 });

function useInvalidate() {
  const queryClient = useQueryClient();
  return async () => {
    await queryClient.invalidateQueries({ queryKey: KEY });
    // What the organization's pages show depends on who acts there (abilities, lists of a support person).
    await queryClient.invalidateQueries({ predicate: (q) => q.queryKey[0] !== KEY[0] });
  };
}

export function useRequestSupport() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ organizationId, body }: { organizationId: string; body: SupportRequestBody }) => api<SupportRequest>(base(organizationId), { method: 'POST', body }),
    onSuccess: invalidate,
  });
}

export function useSupportAction() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ organizationId, requestId, action }: { organizationId: string; requestId: number; action: 'approve' | 'deny' | 'end' }) =>
      api<SupportRequest>(`${base(organizationId)}/${requestId}/${action}`, { method: 'POST' }),
    onSuccess: invalidate,
  });
}

export function useSaveSupportSettings() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ organizationId, body }: { organizationId: string; body: SupportSettings }) => api<SupportSettings>(`${base(organizationId)}/settings`, { method: 'PUT', body }),
    onSuccess: invalidate,
  });
}
