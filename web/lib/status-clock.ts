/**
 * Statuses are computed from dates and the time they are read (common/status.ts). A page that
 * stays open must change by itself at the instant a status does (a certificate's not-after, a
 * license's valid-until): this hook gives the time to compute with and renders again at the next
 * such instant, which the caller names with common/status.ts (`nextCertificateChange`,
 * `nextLicenseChange`). Timers wait at most setTimeout's maximum and are set again from there.
 */
import { useEffect, useReducer } from 'react';
import { delayUntil } from '../../common/status';

/**
 * The time now, for this render; and another render when `nextChange(now)` comes. `nextChange`
 * answers null when nothing changes any more.
 */
export function useStatusClock(nextChange: (now: Date) => Date | null): Date {
  const [tick, render] = useReducer((n: number) => n + 1, 0);
  const now = new Date();
  const next = nextChange(now)?.getTime() ?? null;

  useEffect(() => {
    if (next == null) return undefined;
    // A timer that fires a little early, or one capped at the maximum, renders with no change
    // and comes back here (`tick` changed) to wait for the rest.
    const timer = window.setTimeout(render, delayUntil(new Date(next), new Date()));
    return () => window.clearTimeout(timer);
  }, [next, tick]);

  return now;
}

/**
 * A list's `refetchInterval`: fetch it again at the instant the server said its answer changes by time
 * alone (lib/api.ts `changesAt`, from X-Changes-In): a row of a list filtered on time (hide expired, hide
 * valid, a time status, expiring within) enters or leaves it then, and the total with it. The statuses of
 * the rows shown follow the clock by themselves (useStatusClock); which rows are shown is the server's.
 * Nothing while a fetch runs: the answer it brings sets the next instant.
 */
export function refetchAtChange(query: { state: { data?: { changesAt: number | null }; fetchStatus: string } }): number | false {
  const at = query.state.data?.changesAt;
  if (at == null || query.state.fetchStatus !== 'idle') return false;
  // At least 1 ms: 0 would mean "never" to TanStack Query.
  return Math.max(delayUntil(new Date(at), new Date()), 1);
}
