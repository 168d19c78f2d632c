/**
 * "Go back one page" after an action (SPEC.md §2). A page loaded directly (a bookmark, a link
 * from elsewhere) has no entry of the app to go back to: then go to `fallback` instead.
 */
import { useCallback } from 'react';
import { useNavigate } from 'react-router';

export function useGoBack(fallback: string): () => void {
  const navigate = useNavigate();
  return useCallback(() => {
    // The router numbers its history entries (state.idx); 0 is the entry the app was loaded on.
    const idx = (window.history.state as { idx?: number } | null)?.idx ?? 0;
    if (idx > 0) void navigate(-1);
    else void navigate(fallback, { replace: true });
  }, [navigate, fallback]);
}
