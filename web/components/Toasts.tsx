/**
 * The toasts' container (react-toastify, SPEC.md §9), in a chunk of its own: lib/notifications.ts
 * loads it with the first toast, so no screen waits for it. The unstyled entry never injects a
 * <style> tag, which the CSP would block; its stylesheet comes with this chunk, then ours over it.
 */
import { useComputedColorScheme } from '@mantine/core';
import { Bounce, ToastContainer } from 'react-toastify/unstyled';
import 'react-toastify/ReactToastify.css';
import './Toasts.css';
import { TOAST_AUTO_CLOSE_MS, TOAST_LIMIT } from '../lib/notifications';

export default function Toasts() {
  // react-toastify's light or dark toasts, with the screens' scheme.
  const scheme = useComputedColorScheme('light', { getInitialValueInEffect: false });
  return (
    // Bottom-right (SPEC.md §9 allows either): top-right covered the page's actions beside the
    // heading, e.g. Remove right after Unban, and hovering a toast keeps it there.
    <ToastContainer
      position="bottom-right"
      autoClose={TOAST_AUTO_CLOSE_MS}
      limit={TOAST_LIMIT}
      newestOnTop
      transition={Bounce}
      closeOnClick={false}
      pauseOnFocusLoss
      pauseOnHover
      theme={scheme}
    />
  );
}
