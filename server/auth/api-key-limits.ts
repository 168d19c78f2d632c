/**
 * What a call with an API key costs besides its sign-in (issue 32, docs/decisions.md "API keys"): the per-key limit
 * of requests per minute, answered with 429, Retry-After and the IETF RateLimit / RateLimit-Policy fields
 * (draft-ietf-httpapi-ratelimit-headers); and the note of when and from where the key was last used, written at
 * most once a minute per key.
 *
 * The limit holds across instances without a write per call: an instance takes a lease of a few of the window's
 * requests from the database in one atomic upsert (api-key-store.ts takeLease) and hands them out from memory.
 * Every request any instance lets through was leased, and no more than the limit are ever leased in a window, so
 * together the instances never let a key through more than its limit; a call writes only when its instance's
 * lease is used up (one call in `lease` at most). What a lease leaves unused when the window ends is lost, so with
 * several instances a key may be refused up to (instances − 1) × (lease − 1) requests before its limit.
 */
import type { FastifyReply } from 'fastify';
import type { Db } from '../db/database';
import { HttpError } from '../errors';
import { dropOldWindows, noteUse, takeLease } from './api-key-store';
import type { KeyFacts } from './api-key-actor';

const WINDOW_MS = 60_000;
const POLICY = 'api-key';
/**
 * A lease is this share of the limit, 30 of the default 600 a minute, and at most LEASE_MOST, which bounds what a
 * lease may leave unused; a limit under 40 leases one request at a time, as a plain counter would.
 */
const LEASE_SHARE = 20;
const LEASE_MOST = 100;
/** Keys whose leases an instance remembers before it forgets those of past windows. */
const REMEMBERED = 10_000;

/** One instance's requests of one key in one window: numbers `next` to `end` (inclusive) are its to hand out. */
interface Lease {
  window: number;
  next: number;
  end: number;
  /** The database had no more to lease in this window: refuse until it ends, writing nothing. */
  spent: boolean;
  taking?: Promise<void>;
}

/** The leases of one instance (one per app: two instances in one process must not share them). */
export class KeyBudgets {
  private readonly leases = new Map<string, Lease>();

  constructor(private readonly db: Db, readonly limit: number) {}

  /** The number of the key's request in the window (1 = first), or null when the window's limit is reached. */
  async take(keyId: string, window: number): Promise<number | null> {
    const lease = this.leaseOf(keyId, window);
    for (;;) {
      if (lease.next <= lease.end) return lease.next++;
      if (lease.spent) return null;
      // Calls arriving while a lease is being taken wait for it rather than take one each.
      lease.taking ??= this.extend(keyId, lease).finally(() => { lease.taking = undefined; });
      await lease.taking;
    }
  }

  private leaseOf(keyId: string, window: number): Lease {
    const known = this.leases.get(keyId);
    if (known && known.window === window) return known;
    if (this.leases.size >= REMEMBERED) this.forget(window);
    const lease: Lease = { window, next: 1, end: 0, spent: false };
    this.leases.set(keyId, lease);
    return lease;
  }

  private async extend(keyId: string, lease: Lease): Promise<void> {
    const size = Math.min(LEASE_MOST, Math.max(1, Math.floor(this.limit / LEASE_SHARE)));
    const start = new Date(lease.window).toISOString();
    const total = await takeLease(this.db, keyId, start, size);
    const before = total - size;
    if (before === 0) await dropOldWindows(this.db, keyId, start);
    const granted = Math.max(0, Math.min(size, this.limit - before));
    lease.next = before + 1;
    lease.end = before + granted;
    lease.spent = granted < size;
  }

  private forget(window: number): void {
    for (const [keyId, lease] of this.leases) if (lease.window < window) this.leases.delete(keyId);
  }
}

/** Counts the call in the key's minute window; 429 once the window's limit is reached. */
export async function limitKey(budgets: KeyBudgets, reply: FastifyReply, key: KeyFacts, now: Date): Promise<void> {
  const { limit } = budgets;
  const start = Math.floor(now.getTime() / WINDOW_MS) * WINDOW_MS;
  const number = await budgets.take(key.api_key_id, start);
  const reset = Math.max(1, Math.ceil((start + WINDOW_MS - now.getTime()) / 1000));
  reply.header('ratelimit-policy', `"${POLICY}";q=${limit};w=${WINDOW_MS / 1000}`);
  // What remains as far as this instance knows: the other instances' leases count as used.
  reply.header('ratelimit', `"${POLICY}";r=${number === null ? 0 : limit - number};t=${reset}`);
  if (number === null) {
    reply.header('retry-after', String(reset));
    throw new HttpError(429, `This API key made more than ${limit} requests this minute. Try again in ${reset} seconds.`);
  }
}

/** Notes the use when none was noted in the last minute (by this instance, then by any: the update's condition). */
export async function noteKeyUse(db: Db, key: KeyFacts, from: string, now: Date): Promise<void> {
  if (now.getTime() - key.noted < WINDOW_MS) return;
  key.noted = now.getTime();
  await noteUse(db, key.api_key_id, now.toISOString(), from, new Date(now.getTime() - WINDOW_MS).toISOString());
}
