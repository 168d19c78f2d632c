/**
 * Caches of the sign-in work every request repeats (the member and roles behind a token, an
 * organization's ancestry, the organizations an actor may read), kept per instance and valid for
 * one access epoch: the number triggers move on at every write to members, role_assignments or
 * organizations (migration 0004). A request reads the epoch first (one primary-key lookup) and
 * uses only entries made at that epoch, so a ban or a role change takes effect at the very next
 * call on every instance (docs/decisions.md "Access cache").
 *
 * An entry is tagged with the epoch read *before* its data was read, so its data is at least as new
 * as that epoch; a request that read a newer epoch never uses it.
 */
import { sql } from 'kysely';
import { readRow, type Queryable } from './database';

/**
 * The access, data and journal epochs in one statement: every signed-in request reads them (the
 * data epoch keys the kept list pages and totals, the journal epoch the kept journal pages), and a
 * statement costs more than the lookups themselves. Read together, neither of the others is older
 * than the access epoch it comes with.
 */
const EPOCHS = 'select (select epoch from access_epoch where id = 1) as access, (select epoch from data_epoch where id = 1) as data, (select epoch from journal_epoch where id = 1) as journal';

export async function readEpochs(db: Queryable): Promise<{ access: number; data: number; journal: number }> {
  const row = await (readRow(db, EPOCHS) ?? sql<Record<string, unknown>>`${sql.raw(EPOCHS)}`.execute(db).then((r) => r.rows[0]));
  return { access: Number(row.access), data: Number(row.data), journal: Number(row.journal) };
}

export type EpochName = 'access_epoch' | 'export_epoch' | 'data_epoch' | 'journal_epoch';

/** The number of an epoch row (db/epoch-triggers.ts). */
export async function readEpoch(db: Queryable, name: EpochName): Promise<number> {
  const text = `select epoch from ${name} where id = 1`;
  const row = await (readRow(db, text) ?? sql<Record<string, unknown>>`${sql.raw(text)}`.execute(db).then((r) => r.rows[0]));
  if (!row) throw new Error(`The ${name} row is missing.`);
  return Number(row.epoch);
}

/** A bounded map of values tagged with the epoch they were read at. */
export class EpochCache<V> {
  private readonly entries = new Map<string, { epoch: number; value: V }>();
  constructor(private readonly limit = 10_000) {}

  get(key: string, epoch: number): V | undefined {
    const entry = this.entries.get(key);
    return entry && entry.epoch === epoch ? entry.value : undefined;
  }

  set(key: string, epoch: number, value: V): V {
    // Bounded without bookkeeping: when full, start again (entries are cheap to rebuild).
    if (this.entries.size >= this.limit) this.entries.clear();
    this.entries.set(key, { epoch, value });
    return value;
  }

  /** The cached value, or `load()`'s, stored for this epoch. */
  async through(key: string, epoch: number | undefined, load: () => Promise<V>): Promise<V> {
    if (epoch === undefined) return load();
    const hit = this.get(key, epoch);
    return hit !== undefined ? hit : this.set(key, epoch, await load());
  }
}

/** One set of caches per database (tests run several apps, each on its own database, in one process). */
const perDatabase = new WeakMap<object, Map<string, EpochCache<unknown>>>();

export function epochCache<V>(db: object, name: string): EpochCache<V> {
  let caches = perDatabase.get(db);
  if (!caches) perDatabase.set(db, (caches = new Map()));
  let cache = caches.get(name);
  if (!cache) caches.set(name, (cache = new EpochCache<unknown>()));
  return cache as EpochCache<V>;
}
