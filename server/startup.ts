/**
 * Start-up that waits (issue 14 item 2): the portal listens at once and reports why it is not
 * ready yet, while the database and the identity provider are tried again with exponential
 * backoff until they answer. Nothing here knows what it retries.
 */

/** What keeps the portal from being ready, by part ("database", "identity provider"). */
export class Readiness {
  private readonly reasons = new Map<string, string>();

  set(part: string, reason: string): void {
    this.reasons.set(part, reason);
  }

  clear(part: string): void {
    this.reasons.delete(part);
  }

  /** One line for /readyz and the 503 of the API: every part that is not ready, with its reason. */
  reason(): string {
    return [...this.reasons.values()].join('; ') || 'starting';
  }
}

const BASE_MS = 1_000;
const CAP_MS = 30_000;

/**
 * The wait before attempt `n + 1` after `n + 1` failures: 1 s, 2 s, 4 s… capped at 30 s, each
 * ±20 % at random, so instances that lost the database together do not come back in step.
 */
export function backoffMs(failures: number, random: () => number = Math.random): number {
  const delay = Math.min(CAP_MS, BASE_MS * 2 ** Math.min(failures, 16));
  return Math.round(delay * (0.8 + 0.4 * random()));
}

/**
 * An error as one short line: the message, else its code (Node's AggregateError of a refused
 * connection to every address of a name has none), then its cause (fetch's "fetch failed" says
 * nothing without it). Never the URL or the configuration: passwords ride there.
 */
export function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const own = error.message || (error as NodeJS.ErrnoException).code || ((error as AggregateError).errors?.[0] as Error | undefined)?.message || error.name;
  const cause = error.cause instanceof Error ? describeError(error.cause) : '';
  return cause && !own.includes(cause) ? `${own} (${cause})` : own;
}

interface Logger {
  warn(object: object, message: string): void;
}

export interface RetryOptions {
  /** The part of readiness this is ("database"). */
  part: string;
  readiness: Readiness;
  log: Logger;
  /** What a failure means, for /readyz and the log ("database unreachable: …"). */
  reasonOf: (error: unknown) => string;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
}

/** Runs `attempt` until it succeeds; each failure is logged once at warn and shown on /readyz. */
export async function retrying<T>(attempt: () => Promise<T>, options: RetryOptions): Promise<T> {
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  for (let failures = 0; ; failures++) {
    try {
      const result = await attempt();
      options.readiness.clear(options.part);
      return result;
    } catch (error) {
      const wait = backoffMs(failures, options.random);
      const reason = `${options.reasonOf(error)}, retrying in ${Math.max(1, Math.round(wait / 1000))} s`;
      options.readiness.set(options.part, reason);
      options.log.warn({ attempt: failures + 1, retryInMs: wait }, reason);
      await sleep(wait);
    }
  }
}
