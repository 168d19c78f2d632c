import { describe, expect, it } from 'vitest';
import { SIGN_IN_LIMITS, SignInLimits, addressKey } from './sign-in-limits';

function limitsAt(start = 1_000_000) {
  const clock = { now: start };
  return { clock, limits: new SignInLimits(SIGN_IN_LIMITS, () => clock.now) };
}

/** Starts `n` attempts and leaves them failed; answers how many were allowed. */
function fail(limits: SignInLimits, n: number, ip: (i: number) => string, email: (i: number) => string) {
  let allowed = 0;
  for (let i = 0; i < n; i++) if (limits.begin(ip(i), email(i)).allowed) allowed++;
  return allowed;
}

describe('sign-in limits', () => {
  it('allows 20 attempts a minute from one address, whatever the emails', () => {
    const { limits } = limitsAt();
    expect(fail(limits, 30, () => '198.51.100.7', (i) => `person${i}@example.com`)).toBe(SIGN_IN_LIMITS.perAddress);
    expect(limits.begin('198.51.100.8', 'person0@example.com').allowed).toBe(true);
  });

  it('allows 10 attempts a minute for one email, whatever the addresses', () => {
    const { limits } = limitsAt();
    expect(fail(limits, 30, (i) => `198.51.100.${i}`, () => 'ada@example.com')).toBe(SIGN_IN_LIMITS.perAccount);
    expect(limits.begin('198.51.100.99', 'grace@example.com').allowed).toBe(true);
  });

  it('counts an attempt before its outcome, so parallel guesses do not slip through', () => {
    const { limits } = limitsAt();
    // Twenty attempts started at once, none finished yet.
    const attempts = Array.from({ length: 20 }, () => limits.begin('198.51.100.7', 'ada@example.com'));
    expect(attempts.filter((a) => a.allowed)).toHaveLength(SIGN_IN_LIMITS.perAccount);
  });

  it('gives a successful attempt back: people of one office may all sign in', () => {
    const { limits } = limitsAt();
    for (let i = 0; i < 100; i++) {
      const attempt = limits.begin('198.51.100.7', `person${i}@example.com`);
      expect(attempt.allowed).toBe(true);
      if (attempt.allowed) {
        attempt.succeeded();
        attempt.succeeded(); // once only
      }
    }
    expect(fail(limits, 30, () => '198.51.100.7', (i) => `other${i}@example.com`)).toBe(SIGN_IN_LIMITS.perAddress);
  });

  it('says how long to wait, and opens again after the minute', () => {
    const { clock, limits } = limitsAt();
    fail(limits, 10, () => '198.51.100.7', () => 'ada@example.com');
    clock.now += 15_000;
    expect(limits.begin('198.51.100.7', 'ada@example.com')).toEqual({ allowed: false, retryAfterSeconds: 45 });
    clock.now += 45_000;
    expect(limits.begin('198.51.100.7', 'ada@example.com').allowed).toBe(true);
  });

  it('does not count refused attempts', () => {
    const { clock, limits } = limitsAt();
    fail(limits, 10, () => '198.51.100.7', () => 'ada@example.com');
    expect(fail(limits, 50, () => '198.51.100.7', () => 'ada@example.com')).toBe(0);
    // Only the 10 counted: the address has room for 10 more.
    clock.now += 1;
    expect(fail(limits, 20, () => '198.51.100.7', (i) => `grace${i}@example.com`)).toBe(10);
  });

  it('keys an IPv6 client by its /64 and an IPv4-mapped address as IPv4', () => {
    expect(addressKey('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8:1:2:bbbb:cccc:dddd:eeee')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
    expect(addressKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(addressKey('::ffff:198.51.100.7')).toBe('198.51.100.7');
    expect(addressKey('198.51.100.7')).toBe('198.51.100.7');
    const { limits } = limitsAt();
    expect(fail(limits, 30, (i) => `2001:db8:1:2::${i.toString(16)}`, (i) => `p${i}@example.com`)).toBe(SIGN_IN_LIMITS.perAddress);
  });
});
