/** Providers: Mantine (with the CSP nonce), TanStack Query, the router and the toasts. */
import { Suspense } from 'react';
import { MantineProvider } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { Bounce, ToastContainer } from 'react-toastify/unstyled';
import { Loading } from './components/Loading';
import { TOAST_AUTO_CLOSE_MS, TOAST_LIMIT } from './lib/notifications';
import { queryClient } from './lib/query';
import { AppRouter } from './router';
import { cssVariablesResolver, styleNonce, theme } from './theme';

export function App() {
  return (
    <MantineProvider
      theme={theme}
      defaultColorScheme="light"
      getStyleNonce={styleNonce}
      cssVariablesResolver={cssVariablesResolver}
    >
      <QueryClientProvider client={queryClient}>
        <Suspense fallback={<Loading />}>
          <AppRouter />
        </Suspense>
        {/* Bottom-right (SPEC.md §9 allows either): top-right covered the page's actions beside the
            heading, e.g. Remove right after Unban, and hovering a toast keeps it there. */}
        <ToastContainer
          position="bottom-right"
          autoClose={TOAST_AUTO_CLOSE_MS}
          limit={TOAST_LIMIT}
          newestOnTop
          transition={Bounce}
          closeOnClick={false}
          pauseOnFocusLoss
          pauseOnHover
          theme="light"
        />
      </QueryClientProvider>
    </MantineProvider>
  );
}
