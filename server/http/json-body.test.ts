import { describe, expect, it } from 'vitest';
import { forbiddenKey } from './json-body';

describe('forbiddenKey', () => {
  it('finds __proto__ anywhere, also written with escapes, and constructor.prototype', () => {
    expect(forbiddenKey(JSON.parse('{"a":1,"__proto__":{"admin":true}}'))).toBe('__proto__');
    expect(forbiddenKey(JSON.parse('{"a":[{"b":{"\\u005f_proto__":1}}]}'))).toBe('a.0.b.__proto__');
    expect(forbiddenKey(JSON.parse('{"constructor":{"prototype":{"admin":true}}}'))).toBe('constructor.prototype');
    // Under a key that is the empty string, the path starts with that key: the field named is '', not __proto__.
    expect(forbiddenKey(JSON.parse('{"url":"x","":{"__proto__":{}}}'))).toBe('.__proto__');
  });

  it('lets ordinary bodies through, a plain constructor key too (the schema refuses it as unknown)', () => {
    expect(forbiddenKey({ name: 'x', constructor: 1, toString: 'y', list: [1, { prototype: 2 }] })).toBeNull();
    expect(forbiddenKey('__proto__')).toBeNull();
  });

  it('walks bodies nested 100,000 deep without running out of stack', () => {
    const deep = JSON.parse(`${'{"a":'.repeat(100_000)}{"__proto__":1}${'}'.repeat(100_000)}`);
    expect(forbiddenKey(deep)?.endsWith('a.__proto__')).toBe(true);
  });
});
