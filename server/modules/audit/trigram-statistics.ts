/**
 * PostgreSQL: the journal's candidates through pg_trgm by the filter's rare trigrams only.
 *
 * For `LIKE '%device-004242%'` pg_trgm's GIN index reads the list of every trigram of the pattern,
 * and `dev`, `evi`, `ice` are in most records: about 1,400 index pages, 20 ms at a million records,
 * for 15 matches. `LIKE '%424%' AND LIKE '%242%'` holds for every record that holds the filter and
 * reads 8 pages. Which trigrams are common is what ANALYZE keeps for the statistics object on
 * pg_trgm's trigrams of the indexed text (migration 0014): its most common elements with their
 * frequencies. A trigram it does not list is rarer than all it lists. The filter's LIKE decides
 * afterwards either way; this only chooses which trigram lists the index reads.
 */
import { sql, type RawBuilder } from 'kysely';
import type { Queryable } from '../../db/database';
import { likeContains } from '../../db/text-filter';
import { needleOf } from '../../db/text-index';

/** Rare trigrams intersected at most. */
const INTERSECT = 4;

/**
 * Trigrams pg_trgm surely makes of any text that contains the needle: three letters or digits in a
 * row (it makes its trigrams from such runs, lower-cased), so `'%abc%'` makes exactly `abc`.
 */
export function wordTrigrams(needle: string): string[] {
  const grams = new Set<string>();
  for (const run of needle.match(/[\p{L}\p{N}]+/gu) ?? []) {
    const chars = [...run];
    for (let i = 0; i + 3 <= chars.length; i++) grams.add(chars.slice(i, i + 3).join(''));
  }
  return [...grams];
}

function spread<T>(items: T[], most: number): T[] {
  if (items.length <= most) return items;
  return Array.from({ length: most }, (_, i) => items[Math.round((i * (items.length - 1)) / (most - 1))]);
}

/**
 * How many rows the statistics object says hold each of `grams`, for those it lists among the most
 * common (none when not analyzed yet, or not readable: only the table's owner sees them). A small
 * table lists all its trigrams; a large one those in more than about half a percent of its rows.
 */
async function commonCounts(db: Queryable, statistics: string, grams: string[]): Promise<Map<string, number>> {
  const { rows } = await sql<{ gram: string; n: number }>`select x.gram, x.freq * c.reltuples as n
    from pg_stats_ext_exprs s
      join pg_class c on c.relname = s.tablename and c.relnamespace = s.schemaname::regnamespace,
      unnest(s.most_common_elems::text::text[], s.most_common_elem_freqs) as x(gram, freq)
    where s.statistics_schemaname = current_schema() and s.statistics_name = ${statistics} and x.gram = any(${grams}::text[])`.execute(db);
  return new Map(rows.map((r) => [r.gram, Number(r.n)]));
}

/**
 * What narrows a query to the filter's candidates: the LIKEs of its rare trigrams (at most four,
 * spread over it), or, when the statistics call every trigram common, pg_trgm on the whole filter.
 * Null: pg_trgm makes no trigram of it (no three letters or digits in a row) and would read its
 * whole index.
 */
export async function rareTrigramCandidates(
  db: Queryable,
  statistics: string,
  like: (pattern: string) => RawBuilder<boolean>,
  filter: string,
  /** A trigram in at most this many rows is rare (the SQLite lookup's bound too). */
  most: number,
): Promise<RawBuilder<boolean> | null> {
  const grams = wordTrigrams(needleOf(filter));
  if (!grams.length) return null;
  const counts = await commonCounts(db, statistics, grams);
  const rare = grams.filter((gram) => (counts.get(gram) ?? 0) <= most);
  if (!rare.length) return like(likeContains(filter));
  return sql<boolean>`(${sql.join(spread(rare, INTERSECT).map((gram) => like(`%${gram}%`)), sql` and `)})`;
}
