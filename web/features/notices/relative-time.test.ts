import { describe, expect, it } from 'vitest';
import { formatRelativeTime } from './relative-time';

const now = new Date('2026-03-05T12:00:00Z');
const ago = (seconds: number) => new Date(now.getTime() - seconds * 1000);

describe('formatRelativeTime', () => {
  it('says "just now" within a minute either way', () => {
    expect(formatRelativeTime(ago(0), now)).toBe('just now');
    expect(formatRelativeTime(ago(59), now)).toBe('just now');
    expect(formatRelativeTime(ago(-30), now)).toBe('just now');
  });

  it('counts whole units, the largest that fits', () => {
    expect(formatRelativeTime(ago(60), now)).toBe('1 minute ago');
    expect(formatRelativeTime(ago(59 * 60 + 59), now)).toBe('59 minutes ago');
    expect(formatRelativeTime(ago(3600), now)).toBe('1 hour ago');
    expect(formatRelativeTime(ago(24 * 3600), now)).toBe('yesterday');
    expect(formatRelativeTime(ago(3 * 24 * 3600), now)).toBe('3 days ago');
    expect(formatRelativeTime(ago(15 * 24 * 3600), now)).toBe('2 weeks ago');
    expect(formatRelativeTime(ago(400 * 24 * 3600), now)).toBe('last year');
  });

  it('reads the API\'s ISO strings', () => {
    expect(formatRelativeTime('2026-03-05T10:00:00.000Z', now)).toBe('2 hours ago');
  });
});
