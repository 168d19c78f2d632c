/**
 * Queries Kysely builds and compiles once per shape. Building a query with many expressions costs more CPU than the
 * database running it: the overview's counts (two dozen conditional counts per table, from db/status-sql.ts) took
 * 0.7 ms of JavaScript per request for 0.2 ms of SQLite. Such a query is written as a function of its shape (what
 * changes its SQL text: a scope's length, a filter that is set or not) and of its values (what only changes its
 * parameters: instants, ids); it is built once per shape with a marker in place of every value, and each call runs
 * that compiled text with its own values in the markers' places.
 *
 * A value the query builds from a value it was given (`at + 1 day`) would be built from a marker: pass every such
 * value in. Outside production each call is also built afresh and compared, so a test finds one that was not.
 */
import { CompiledQuery, type Compilable } from 'kysely';
import type { Queryable } from './database';

type Value = string | number | null;
/** The values of a call: each a value or a list of values (a list's length is part of the shape). */
type Values = Record<string, Value | readonly Value[]>;

interface Template {
  sql: string;
  /** Each parameter: a constant of the query, or where in the call's values it comes from. */
  parameters: Array<{ constant: unknown } | { name: string; index?: number }>;
}

const MARK = '\u0000';
const marker = (name: string, index?: number) => `${MARK}${name}${index === undefined ? '' : `${MARK}${index}`}${MARK}`;

/** The values with a marker in place of each (and of each list element). */
function markersOf<V extends Values>(values: V): V {
  return Object.fromEntries(Object.entries(values).map(([name, value]) => [name, Array.isArray(value) ? value.map((_, i) => marker(name, i)) : marker(name)])) as V;
}

function templateOf(compiled: CompiledQuery): Template {
  return {
    sql: compiled.sql,
    parameters: compiled.parameters.map((p) => {
      if (typeof p !== 'string' || !p.startsWith(MARK)) return { constant: p };
      const [name, index] = p.slice(1, -1).split(MARK);
      return index === undefined ? { name } : { name, index: Number(index) };
    }),
  };
}

function parametersOf(template: Template, values: Values): unknown[] {
  return template.parameters.map((p) => {
    if ('constant' in p) return p.constant;
    const value = values[p.name];
    return p.index === undefined ? value : (value as readonly Value[])[p.index];
  });
}

const CHECKED = process.env.NODE_ENV !== 'production';

/**
 * A query built by `build(db, shape, values)` once per database and shape (`shape` as JSON, with the lengths of the
 * lists among `values`), run with each call's values.
 */
export function compiledOnce<S, V extends Values, R>(build: (db: Queryable, shape: S, values: V) => Compilable<R>) {
  const templates = new WeakMap<object, Map<string, Template>>();
  return async (db: Queryable, shape: S, values: V): Promise<R[]> => {
    // A transaction compiles as its database does: one set of templates per Kysely executor's dialect is enough, and
    // the database object (not the transaction) is the one that lives long.
    const owner = db.getExecutor().adapter;
    let kept = templates.get(owner);
    if (!kept) templates.set(owner, (kept = new Map()));
    const lengths = Object.entries(values).filter(([, v]) => Array.isArray(v)).map(([name, v]) => `${name}:${(v as unknown[]).length}`);
    const key = `${JSON.stringify(shape)} ${lengths.join(',')}`;
    let template = kept.get(key);
    if (!template) kept.set(key, (template = templateOf(build(db, shape, markersOf(values)).compile())));
    const parameters = parametersOf(template, values);
    if (CHECKED) {
      const fresh = build(db, shape, values).compile();
      if (fresh.sql !== template.sql || JSON.stringify(fresh.parameters) !== JSON.stringify(parameters)) {
        throw new Error(`compiledOnce: the query differs from its kept template; a value it depends on is not among its values or shape:\n${fresh.sql}`);
      }
    }
    const { rows } = await db.executeQuery<R>(CompiledQuery.raw(template.sql, parameters));
    return rows;
  };
}
