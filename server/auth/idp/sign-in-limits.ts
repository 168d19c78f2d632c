/**
 * Limits on password attempts at the built-in provider's sign-in form (DECISIONS.md "Sign-in"):
 * per client address and per account, both at once, in fixed one-minute windows.
 *
 * An attempt is counted the moment it starts, before its password is checked, so guesses sent
 * in parallel cannot slip through; a successful attempt is given back, so the limits bound
 * wrong passwords and not people of one office signing in.
 */
import net from 'node:net';

export const SIGN_IN_LIMITS = {
  /** Attempts per minute from one client address (an IPv6 client: its /64). */
  perAddress: 20,
  /** Attempts per minute for one email, from any number of addresses. */
  perAccount: 10,
  windowMs: 60_000,
};

/** One client's key: the address, an IPv4-mapped IPv6 address as IPv4, IPv6 by its /64 prefix. */
export function addressKey(ip: string): string {
  const address = ip.split('%')[0];
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  if (mapped) return mapped[1];
  if (net.isIPv6(address)) {
    const [head, tail] = address.split('::');
    const left = head ? head.split(':') : [];
    const right = tail ? tail.split(':') : [];
    const zeros = tail === undefined ? [] : Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0');
    const groups = [...left, ...zeros, ...right].slice(0, 4).map((g) => parseInt(g, 16).toString(16));
    return `${groups.join(':')}::/64`;
  }
  return address;
}

interface Window {
  count: number;
  resetAt: number;
}

class Counter {
  private windows = new Map<string, Window>();
  private lastSweep = 0;

  constructor(
    private readonly max: number,
    private readonly windowMs: number,
    private readonly now: () => number,
  ) {}

  /** The key's open window, or undefined when it has none. */
  current(key: string): Window | undefined {
    const window = this.windows.get(key);
    return window && window.resetAt > this.now() ? window : undefined;
  }

  full(key: string): boolean {
    return (this.current(key)?.count ?? 0) >= this.max;
  }

  take(key: string): Window {
    this.sweep();
    let window = this.current(key);
    if (!window) {
      window = { count: 0, resetAt: this.now() + this.windowMs };
      this.windows.set(key, window);
    }
    window.count += 1;
    return window;
  }

  giveBack(key: string, taken: Window) {
    // Only into the window it was taken from: a new window starts from nothing anyway.
    if (this.windows.get(key) === taken && taken.count > 0) taken.count -= 1;
  }

  /** Drops closed windows, at most once a second, so keys of past attempts do not pile up. */
  private sweep() {
    const now = this.now();
    if (now - this.lastSweep < 1000) return;
    this.lastSweep = now;
    for (const [key, window] of this.windows) if (window.resetAt <= now) this.windows.delete(key);
  }
}

export type Attempt = { allowed: true; succeeded(): void } | { allowed: false; retryAfterSeconds: number };

export class SignInLimits {
  private readonly byAddress: Counter;
  private readonly byAccount: Counter;

  constructor(
    limits = SIGN_IN_LIMITS,
    private readonly now: () => number = Date.now,
  ) {
    this.byAddress = new Counter(limits.perAddress, limits.windowMs, now);
    this.byAccount = new Counter(limits.perAccount, limits.windowMs, now);
  }

  /**
   * Starts an attempt from this address for this (lower-cased) email: refused while either limit
   * is reached (and then not counted), otherwise counted against both until `succeeded()`.
   */
  begin(ip: string, email: string): Attempt {
    const address = addressKey(ip);
    if (this.byAddress.full(address) || this.byAccount.full(email)) {
      const resetAt = Math.max(
        this.byAddress.full(address) ? this.byAddress.current(address)!.resetAt : 0,
        this.byAccount.full(email) ? this.byAccount.current(email)!.resetAt : 0,
      );
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((resetAt - this.now()) / 1000)) };
    }
    const addressWindow = this.byAddress.take(address);
    const accountWindow = this.byAccount.take(email);
    let settled = false;
    return {
      allowed: true,
      succeeded: () => {
        if (settled) return;
        settled = true;
        this.byAddress.giveBack(address, addressWindow);
        this.byAccount.giveBack(email, accountWindow);
      },
    };
  }
}
