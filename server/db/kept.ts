/**
 * The one way the portal keeps what it has read (docs/decisions.md "Kept answers"): a bounded map of values,
 * each under a key that names everything the value varies by, with the stamp of the versions it was read at
 * (db/versions.ts) and the instant until which it holds by time alone. A value is found only for the same
 * stamp and before its instant; anything else reads afresh. Used for the sign-in work every request repeats
 * (auth/actor.ts, access/tree.ts) and for whole answers (http/kept-answers.ts).
 */

interface Entry<V> {
  stamp: string;
  value: V;
  /** The instants (ms) [from, until) at which it holds: read at `from`, different by time alone from `until`. */
  from: number;
  until: number;
  size: number;
}

export interface KeptOptions<V> {
  /** Entries at most. */
  entries: number;
  /** Bytes at most, by `sizeOf` (the least recently used go first). */
  bytes?: number;
  sizeOf?: (value: V) => number;
}

export class Kept<V> {
  private readonly entries = new Map<string, Entry<V>>();
  private bytes = 0;

  constructor(private readonly options: KeptOptions<V>) {}

  /** The value under `key` for `stamp` at instant `at` (ms), or undefined. */
  get(key: string, stamp: string, at: number): V | undefined {
    const entry = this.entries.get(key);
    // A clock set back (tests, a corrected server) reads afresh too.
    if (!entry || entry.stamp !== stamp || at < entry.from || at >= entry.until) return undefined;
    // Least recently used first: a found entry moves to the end.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  /** Keeps `value`, read at instant `from`, until `until`. */
  set(key: string, stamp: string, value: V, from = -Infinity, until = Infinity): V {
    this.delete(key);
    const size = this.options.sizeOf?.(value) ?? 0;
    this.entries.set(key, { stamp, value, from, until, size });
    this.bytes += size;
    const { entries, bytes = Infinity } = this.options;
    for (const [oldest] of this.entries) {
      if (this.entries.size <= entries && this.bytes <= bytes) break;
      this.delete(oldest);
    }
    return value;
  }

  /**
   * The kept value, or `load()`'s kept under `stamp` (undefined: the versions were missing, nothing is kept)
   * until `until()`, the next instant it changes by time alone (omitted: never).
   */
  async through(key: string, stamp: string | undefined, at: number, load: () => Promise<V>, until?: () => Promise<number>): Promise<V> {
    if (stamp === undefined) return load();
    const hit = this.get(key, stamp, at);
    if (hit !== undefined) return hit;
    const [value, next] = await Promise.all([load(), until ? until() : Infinity]);
    return this.set(key, stamp, value, at, next);
  }

  private delete(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.bytes -= entry.size;
    this.entries.delete(key);
  }
}

/** One set of kept values per database (tests run several apps, each on its own database, in one process). */
const perDatabase = new WeakMap<object, Map<string, Kept<unknown>>>();

export function keptFor<V>(db: object, name: string, options: KeptOptions<V> = { entries: 10_000 }): Kept<V> {
  let all = perDatabase.get(db);
  if (!all) perDatabase.set(db, (all = new Map()));
  let kept = all.get(name);
  if (!kept) all.set(name, (kept = new Kept<unknown>(options as KeptOptions<unknown>)));
  return kept as Kept<V>;
}
