/**
 * TanStack Query set-up. lib/api.ts already shows every failure (toast or error screen), so
 * queries do not retry: a retry would only show the same toast or screen again.
 */
import { QueryClient } from '@tanstack/react-query';

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { staleTime: 30_000, refetchOnWindowFocus: false, retry: false },
    mutations: { retry: false },
  },
});
