/**
 * better-sqlite3's statements as the portal prepares them: kept by SQL text, each prepared once with its
 * parameters written `+?`.
 *
 * Why `+?`: better-sqlite3's SQLite is built with SQLITE_ENABLE_STAT4, under which a parameter compared with an
 * indexed column marks the statement for preparing again whenever a parameter is bound anew, so the query planner
 * can pick a plan for the value. better-sqlite3 binds anew on every run: a join with such a parameter was planned
 * again on every run, 8–80 µs each (a person's sign-in 94 µs, 24 µs once; docs/performance.md). `+?` is the same
 * value with no affinity of its own, as a bare `?`, so comparisons and index use are unchanged; the planner only no
 * longer plans per value, which it would do by statistics the portal never gathers (it runs no ANALYZE).
 */
import type SQLite from 'better-sqlite3';

/**
 * `text` with every parameter `?` outside quotes and comments written `+?` (the plan no longer depends on the
 * values). Numbered parameters (`?1`) are not used by the portal and stay as they are.
 */
export function plannedOnce(text: string): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    const closing = c === "'" || c === '"' || c === '`' ? c : c === '[' ? ']' : undefined;
    if (closing) {
      // A quoted string or name runs to its closing quote; a doubled quote inside it is part of it.
      let end = text.indexOf(closing, i + 1);
      while (end !== -1 && closing !== ']' && text[end + 1] === closing) end = text.indexOf(closing, end + 2);
      end = end === -1 ? text.length : end + 1;
      out += text.slice(i, end);
      i = end;
    } else if (text.startsWith('--', i) || text.startsWith('/*', i)) {
      const line = text.startsWith('--', i);
      const found = text.indexOf(line ? '\n' : '*/', i + 2);
      const end = found === -1 ? text.length : found + (line ? 1 : 2);
      out += text.slice(i, end);
      i = end;
    } else {
      out += c === '?' && !/[0-9]/.test(text[i + 1] ?? '') ? '+?' : c;
      i++;
    }
  }
  return out;
}

/**
 * The connection's statements kept by SQL text: Kysely prepares each query anew, and compiling the SQL was about a
 * tenth of a list request's CPU under load. Statements run one at a time on this connection (the driver is
 * synchronous and nothing here streams), so one kept statement per text serves every caller. Bounded without
 * bookkeeping: when full, start again.
 */
export function keepingStatements(sqlite: SQLite.Database, beforeClose?: () => void): { close(): void; prepare(text: string): SQLite.Statement } {
  const statements = new Map<string, SQLite.Statement>();
  return {
    close: () => {
      beforeClose?.();
      sqlite.close();
    },
    prepare(text) {
      let statement = statements.get(text);
      if (!statement) {
        if (statements.size >= 2_000) statements.clear();
        statements.set(text, (statement = sqlite.prepare(plannedOnce(text))));
      }
      return statement;
    },
  };
}
