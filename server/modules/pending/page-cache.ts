/**
 * Pages of the pending lists, kept per instance like the list totals (db/count-cache.ts): valid
 * while the data epoch (migration 0010: every write to certificates, licenses, members, roles and
 * organizations, by whoever, on any instance) stays where it was and, for acknowledgements, until
 * the next instant a row expires and starts to wait. Every admin opening the screen, and every
 * poll, asks for the same first pages; reading 100 rows with their joins costs milliseconds.
 * See docs/decisions.md "Pending tasks".
 */
import { EpochCache } from '../../db/access-epoch';
import { keep, type Kept } from '../../db/count-cache';

// A page holds up to 1,000 rows (about 0.5 MB of JSON with its rows): few entries, so a walk through
// every page cannot hold much memory. The screens ask for a handful of first pages.
const LIMIT = 64;
const perDatabase = new WeakMap<object, EpochCache<Kept<unknown>>>();

/**
 * The page under `key` (which must name the kind, the list, the organizations and the paging),
 * read at data epoch `epoch`, kept as db/count-cache.ts `keep` keeps values.
 */
export function cachedPage<T>(db: object, epoch: number, key: string, now: Date, load: () => Promise<T>, until?: () => Promise<number>): Promise<T> {
  let cache = perDatabase.get(db);
  if (!cache) perDatabase.set(db, (cache = new EpochCache<Kept<unknown>>(LIMIT)));
  return keep(cache as EpochCache<Kept<T>>, key, epoch, now, load, until);
}
