import { describe, expect, it } from 'vitest';
import { Readiness, backoffMs, describeError, retrying } from './startup';

describe('start-up retries', () => {
  it('backs off exponentially, capped at 30 s, with ±20 % jitter', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 40].map((n) => backoffMs(n, () => 0.5))).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000]);
    expect(backoffMs(2, () => 0)).toBe(3200);
    expect(backoffMs(2, () => 1)).toBe(4800);
  });

  it('describes a refused connection and a failed fetch by their causes', () => {
    const refused = Object.assign(new AggregateError([new Error('connect ECONNREFUSED ::1:5432')], ''), { code: 'ECONNREFUSED' });
    expect(describeError(refused)).toBe('ECONNREFUSED');
    expect(describeError(new TypeError('fetch failed', { cause: new Error('connect ECONNREFUSED 127.0.0.1:9') }))).toBe('fetch failed (connect ECONNREFUSED 127.0.0.1:9)');
  });

  it('retries until the attempt succeeds, logging each failure once at warn and showing it as the reason', async () => {
    const readiness = new Readiness();
    const warnings: string[] = [];
    const reasons: string[] = [];
    let calls = 0;
    const result = await retrying(async () => {
      if (++calls < 3) throw new Error('connect ECONNREFUSED');
      return 'up';
    }, {
      part: 'database', readiness, log: { warn: (_o, message) => warnings.push(message) },
      reasonOf: (error) => `database unreachable: ${describeError(error)}`,
      sleep: async () => void reasons.push(readiness.reason()), random: () => 0.5,
    });
    expect(result).toBe('up');
    expect(warnings).toEqual(['database unreachable: connect ECONNREFUSED, retrying in 1 s', 'database unreachable: connect ECONNREFUSED, retrying in 2 s']);
    expect(reasons).toEqual(warnings);
    expect(readiness.reason()).toBe('starting');
  });
});
