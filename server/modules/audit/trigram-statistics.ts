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
 * What narrows a query to the filter's candidates: the LIKEs of its least common trigrams (at most
 * four, the unlisted ones spread over the filter first), each estimated in at most `most` records.
 * Null, and the organization's records are read instead: pg_trgm makes no trigram of the filter (no
 * three letters or digits in a row) and would read its whole index, or the statistics call every
 * trigram more common than that: pg_trgm would read their lists and recheck every record that holds
 * them all, which for "ice-dev" (in no record, but ice and dev are in most) took 1.7 s at a million
 * records against 0.3 s for reading the organization's 500,000.
 */
export async function rareTrigramCandidates(
  db: Queryable,
  statistics: string,
  like: (pattern: string) => RawBuilder<boolean>,
  filter: string,
  most: number,
): Promise<RawBuilder<boolean> | null> {
  const grams = wordTrigrams(needleOf(filter));
  if (!grams.length) return null;
  const counts = await commonCounts(db, statistics, grams);
  const unlisted = grams.filter((gram) => !counts.has(gram));
  const listed = grams.filter((gram) => counts.has(gram) && counts.get(gram)! <= most).sort((a, b) => counts.get(a)! - counts.get(b)!);
  const chosen = unlisted.length >= INTERSECT ? spread(unlisted, INTERSECT) : [...unlisted, ...listed].slice(0, INTERSECT);
  if (!chosen.length) return null;
  return sql<boolean>`(${sql.join(chosen.map((gram) => like(`%${gram}%`)), sql` and `)})`;
}
