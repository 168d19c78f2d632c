import { describe, expect, it } from 'vitest';
import { parseInstant } from './license';

describe('parseInstant', () => {
  it.each([
    ['2028-02-29', '2028-02-29T00:00:00.000Z'],
    ['2024-03-04T23:00:00.000Z', '2024-03-04T23:00:00.000Z'],
    ['2024-03-05T00:00:00+01:00', '2024-03-04T23:00:00.000Z'],
    ['2024-03-05T00:00+01:00', '2024-03-04T23:00:00.000Z'],
    ['2000-01-01', '2000-01-01T00:00:00.000Z'],
  ])('reads %s as %s', (text, instant) => {
    expect(parseInstant(text)).toBe(instant);
  });

  it.each(['2026-02-29', '2026-02-30T00:00:00Z', '2026-04-31', '2026-03-15T04:00', '1999-12-31', '9001-01-01', '2026-3-5', 'today', ''])(
    'refuses %j',
    (text) => {
      expect(parseInstant(text)).toBeNull();
    },
  );
});
