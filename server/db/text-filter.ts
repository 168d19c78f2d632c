/** Case-insensitive "contains" for list filters, with the user's % and _ taken literally. */
import { sql, type RawBuilder } from 'kysely';

export function likeContains(text: string): string {
  return `%${text.trim().toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** `lower(column) LIKE '%text%'` on both dialects; pass a reference like 'o.organization_name'. */
export function containsIgnoringCase(column: string, text: string): RawBuilder<boolean> {
  return sql<boolean>`lower(${sql.ref(column)}) like ${likeContains(text)} escape '\\'`;
}

/** For columns already stored lower-cased (dn_search, name_search), so the index serves the prefix. */
export function containsLowered(column: string, text: string): RawBuilder<boolean> {
  return sql<boolean>`${sql.ref(column)} like ${likeContains(text)} escape '\\'`;
}
