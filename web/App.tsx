/** Providers: Mantine (with the CSP nonce), TanStack Query, the router and the toasts. */
import { lazy, Suspense, useSyncExternalStore } from 'react';
import { MantineProvider } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { Loading } from './components/Loading';
import { toastsWanted } from './lib/notifications';
import { queryClient } from './lib/query';
import { AppRouter } from './router';
import { cssVariablesResolver, styleNonce, theme } from './theme';

const Toasts = lazy(() => import('./components/Toasts'));

/** The toasts' container, from the first toast on (lib/notifications.ts). */
function ToastHost() {
  const wanted = useSyncExternalStore(toastsWanted.subscribe, toastsWanted.get);
  return wanted ? (
    <Suspense fallback={null}>
      <Toasts />
    </Suspense>
  ) : null;
}

export function App() {
  return (
    <MantineProvider
      theme={theme}
      // The system's scheme until the person picks one (layouts/ColorSchemeToggle, kept in localStorage).
      defaultColorScheme="auto"
      getStyleNonce={styleNonce}
      cssVariablesResolver={cssVariablesResolver}
    >
      <QueryClientProvider client={queryClient}>
        <Suspense fallback={<Loading />}>
          <AppRouter />
        </Suspense>
        <ToastHost />
      </QueryClientProvider>
    </MantineProvider>
  );
}
