/** Case-insensitive "contains" for list filters, with the user's % and _ taken literally. */
import { sql, type RawBuilder } from 'kysely';
import { isPostgres, type Queryable } from './database';

export function likeContains(text: string): string {
  return `%${text.trim().toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * Pass a reference like 'o.organization_name'. PostgreSQL: `lower(column) LIKE '%text%'`. SQLite:
 * a plain LIKE, which already ignores the case of ASCII letters, as SQLite's lower() only lowers
 * those: the same matches, without a lower-cased copy of every value read (a journal search reads
 * hundreds of thousands).
 */
export function containsIgnoringCase(db: Queryable, column: string, text: string): RawBuilder<boolean> {
  const value = isPostgres(db) ? sql`lower(${sql.ref(column)})` : sql.ref(column);
  return sql<boolean>`${value} like ${likeContains(text)} escape '\\'`;
}

/** For columns already stored lower-cased (dn_search, name_search), so the index serves the prefix. */
export function containsLowered(column: string, text: string): RawBuilder<boolean> {
  return sql<boolean>`${sql.ref(column)} like ${likeContains(text)} escape '\\'`;
}
