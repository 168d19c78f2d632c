import SQLite from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { keepingStatements, plannedOnce } from './sqlite-statements';

describe('plannedOnce', () => {
  it('writes every parameter +?, in any position', () => {
    expect(plannedOnce('select * from a join b on b.id = a.b where a.id = ? and a.n in (?, ?) limit ? offset ?'))
      .toBe('select * from a join b on b.id = a.b where a.id = +? and a.n in (+?, +?) limit +? offset +?');
    expect(plannedOnce('insert into t (a, b) values (?,?) returning a')).toBe('insert into t (a, b) values (+?,+?) returning a');
  });

  it('leaves question marks inside strings, quoted names and comments, and numbered parameters', () => {
    expect(plannedOnce(`select 'what?', 'it''s ?', "odd?name", [br?acket], \`b?t\` from t where x = ?1 -- ok?\nand y = ? /* ? */`))
      .toBe(`select 'what?', 'it''s ?', "odd?name", [br?acket], \`b?t\` from t where x = ?1 -- ok?\nand y = +? /* ? */`);
  });
});

describe('statements with +? parameters', () => {
  const sqlite = new SQLite(':memory:');
  sqlite.exec(`create table o (id text primary key, name text);
    create table m (id text primary key, o text, email text unique, n integer);
    insert into o values ('o1', 'One'), ('o2', 'Two');
    insert into m values ('m1', 'o1', 'a@x', 5), ('m2', 'o2', 'b@x', 10), ('m3', 'o1', 'c@x', 15);`);
  const statements = keepingStatements(sqlite);
  const rows = (text: string, ...params: unknown[]) => statements.prepare(text).all(...params);

  it('compare, match, page and convert values as before', () => {
    expect(rows('select m.id, o.name from m join o on o.id = m.o where m.email = ?', 'b@x')).toEqual([{ id: 'm2', name: 'Two' }]);
    // The column's affinity still applies to the value: text '10' equals integer 10.
    expect(rows('select id from m where n = ?', '10')).toEqual([{ id: 'm2' }]);
    expect(rows('select id from m where email like ? order by id', 'a%')).toEqual([{ id: 'm1' }]);
    expect(rows('select id from m order by id limit ? offset ?', 2, 1)).toEqual([{ id: 'm2' }, { id: 'm3' }]);
    expect(rows('select id from m where o in (?, ?) and n between ? and ? order by id', 'o1', 'o9', 1, 12)).toEqual([{ id: 'm1' }]);
  });

  it('still look rows up by the index, not by scanning', () => {
    const plan = statements.prepare('explain query plan select m.id, o.name from m join o on o.id = m.o where m.email = ?').all('a@x') as { detail: string }[];
    expect(plan.map((p) => p.detail)).toEqual([expect.stringMatching(/^SEARCH m USING INDEX/), expect.stringMatching(/^SEARCH o USING INDEX/)]);
  });
});
