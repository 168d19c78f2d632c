/**
 * When to try a mail or a webhook delivery again (modules/notifications/mail.ts,
 * modules/webhooks/deliver.ts): exponential from 30 seconds, at most 6 hours apart, for at least a
 * day (issue 13): the 14th attempt comes after about 26 hours, the last (18th) after about 50 hours. A little jitter keeps a recovered receiver from a thundering herd.
 */
export const MAX_ATTEMPTS = 18;

export function nextAttemptAt(attempts: number, now: Date, random = Math.random): Date | null {
  if (attempts >= MAX_ATTEMPTS) return null;
  const base = Math.min(30_000 * 2 ** (attempts - 1), 6 * 3_600_000);
  return new Date(now.getTime() + Math.round(base * (0.9 + 0.2 * random())));
}

/** How long a sender holds what it took before another may take it again (a sender that died). */
export const LEASE_MS = 2 * 60_000;
