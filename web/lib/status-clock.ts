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
