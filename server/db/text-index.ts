/**
 * Trigram indexes for "contains" filters (the journal's text, migration 0011; certificate DNs and
 * license names, migration 0013): which rows may contain a filter. An index narrows, the filter's
 * own LIKE decides, so every engine answers exactly what a plain substring search answers
 * (docs/decisions.md "Journal pages by key", "List name filters").
 */
import { sql, type RawBuilder } from 'kysely';
import { isPostgres, type Queryable } from './database';
import { likeContains } from './text-filter';

/** SQLite: trigrams of a long filter probed at most, spread over it; any of them narrows correctly. */
const PROBES = 24;
/** SQLite: rare trigrams a lookup intersects. */
const INTERSECT = 4;

/** One trigram index, as a query names it. */
export interface TextIndex {
  /** SQLite: the FTS5 table (trigram tokenizer, detail=none) whose rowids are the indexed rows' keys. */
  table: string;
  /** SQLite: the indexed rows' integer key as the query names it (`record_id`, `c.rowid`). */
  key: string;
  /** PostgreSQL: the LIKE on the indexed expression, word for word, so the planner may use the index. */
  like: (pattern: string) => RawBuilder<boolean>;
}

/** The text the LIKE of `containsIgnoringCase` (`containsLowered`) looks for, before escaping. */
export const needleOf = (filter: string) => filter.trim().toLowerCase();

/**
 * Whether the index can narrow this filter at all. FTS5 trigrams need three characters; pg_trgm
 * makes its trigrams from runs of letters and digits, and a pattern without a run of three would
 * make it read its whole index.
 */
function indexable(db: Queryable, filter: string): boolean {
  const needle = needleOf(filter);
  return isPostgres(db) ? /[\p{L}\p{N}]{3}/u.test(needle) : [...needle].length >= 3;
}

/** What narrows a query of the indexed table to the candidates, `none` when no row can match, or null when the index would not narrow it enough. */
export type Candidates = RawBuilder<boolean> | 'none' | null;

/** How the SQLite lookup chooses its trigrams (`rare` alone: the journal's way). */
export interface Lookup {
  /** A trigram in at most this many rows (of all organizations) is rare enough to look candidates up by. */
  rare: number;
  /** Stop probing once this many rare trigrams are found (a probe costs a read of up to `rare` rows). Default: probe them all. */
  enough?: number;
  /** When no trigram is rare, whether to try the intersection of all of them (a read of every one's list). Default: yes. */
  intersectCommon?: boolean;
}

/** `lookup`: on SQLite, which trigrams the candidates are looked up by; a number is `{ rare }`. */
export async function candidates(db: Queryable, index: TextIndex, filter: string, lookup: number | Lookup): Promise<Candidates> {
  const { rare, enough = Infinity, intersectCommon = true } = typeof lookup === 'number' ? { rare: lookup } : lookup;
  if (!indexable(db, filter)) return null;
  // pg_trgm's own recheck keeps this exact for itself; the planner weighs the index against the others.
  if (isPostgres(db)) return index.like(likeContains(filter));
  const match = await sqliteMatch(db, index.table, needleOf(filter), rare, enough, intersectCommon);
  if (match === 'none' || match === null) return match;
  return sql<boolean>`${sql.raw(index.key)} in (select rowid from ${sql.raw(index.table)} where ${sql.raw(index.table)} match ${match})`;
}

function trigrams(needle: string): string[] {
  const chars = [...needle];
  const grams = new Set<string>();
  for (let i = 0; i + 3 <= chars.length; i++) grams.add(chars.slice(i, i + 3).join(''));
  return [...grams];
}

const plainLetters = (gram: string) => [...gram].filter((c) => /[a-z]/.test(c)).length;

function spread<T>(items: T[], most: number): T[] {
  if (items.length <= most) return items;
  return Array.from({ length: most }, (_, i) => items[Math.round((i * (items.length - 1)) / (most - 1))]);
}

/** An FTS5 string: every character literal, `"` doubled. The trigram tokenizer folds case itself. */
const phrase = (gram: string) => `"${gram.replaceAll('"', '""')}"`;

async function rowsMatching(db: Queryable, table: string, match: string, most: number): Promise<number> {
  const { rows } = await sql<{ n: number }>`select count(*) as n from (
      select 1 from ${sql.raw(table)} where ${sql.raw(table)} match ${match} limit ${most})`.execute(db);
  return Number(rows[0].n);
}

/**
 * An FTS5 query for the rows that hold every trigram of the filter that few rows hold. detail=none
 * keeps no positions, so a query is an intersection, and an intersection of trigrams that most rows
 * hold (`dev`, `ice`, `cer`) reads all of them: each trigram is first counted up to `rare` (cheap:
 * the count stops there), and only the rarest few are intersected.
 */
async function sqliteMatch(
  db: Queryable, table: string, needle: string, rare: number, enough: number, intersectCommon: boolean,
): Promise<string | 'none' | null> {
  const grams = spread(trigrams(needle), PROBES);
  const counted: Array<[string, number]> = [];
  // With `enough`, the trigrams likelier to be rare first: those with digits or other non-letters (numbers in names).
  const order = Number.isFinite(enough) ? [...grams].sort((a, b) => plainLetters(a) - plainLetters(b)) : grams;
  let found = 0;
  for (const gram of order) {
    const n = await rowsMatching(db, table, phrase(gram), rare + 1);
    if (n === 0) return 'none';
    counted.push([gram, n]);
    if (n <= rare && ++found >= enough) break;
  }
  const fewest = counted.filter(([, n]) => n <= rare).sort((a, b) => a[1] - b[1]);
  if (fewest.length) return fewest.slice(0, INTERSECT).map(([gram]) => phrase(gram)).join(' AND ');
  if (!intersectCommon) return null;
  // Only common trigrams: their intersection may still be rare ("ice-dev"); it costs a read of their lists.
  const all = grams.map(phrase).join(' AND ');
  const n = await rowsMatching(db, table, all, rare + 1);
  if (n === 0) return 'none';
  return n <= rare ? all : null;
}

/**
 * SQLite: how a list's name filter looks its candidates up. A probe of a trigram reads up to `rare`
 * of its rows, so it stops at the first rare one, and a filter of common trigrams only (one that
 * most names share) keeps the LIKE, which finds its page early in the list's order.
 */
const LIST_LOOKUP: Lookup = { rare: 1000, enough: 1, intersectCommon: false };

/**
 * A list's name filter ("contains", ignoring case, on a lower-cased column such as `c.dn_search`)
 * through the column's trigram index (migration 0013): the candidates the index names, and the
 * filter's own LIKE over them, which decides. A filter the index cannot narrow keeps the plain LIKE,
 * written on PostgreSQL so that the planner keeps to the list's index rather than reading the whole
 * trigram index for it.
 */
export async function containsThroughIndex(
  db: Queryable,
  index: Omit<TextIndex, 'like'> & { column: string },
  filter: string,
  lookup: Lookup = LIST_LOOKUP,
): Promise<RawBuilder<boolean>> {
  const column = sql.ref(index.column);
  const pattern = likeContains(filter);
  const decide = sql<boolean>`${column} like ${pattern} escape '\\'`;
  const narrow = await candidates(db, { ...index, like: () => decide }, filter, lookup);
  if (narrow === 'none') return sql<boolean>`1 = 0`;
  if (narrow) return isPostgres(db) ? narrow : sql<boolean>`${narrow} and ${decide}`;
  return isPostgres(db) ? sql<boolean>`(${column} || '') like ${pattern} escape '\\'` : decide;
}
