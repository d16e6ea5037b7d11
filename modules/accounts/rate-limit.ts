/**
 * Fixed-window attempt counter, in process memory. Keys name what is limited
 * ("signin:ip:1.2.3.4", "signin:email:a@b.c"). One process serves the app, so memory is enough;
 * several processes would need a shared store behind the same interface.
 */
export type RateRule = { limit: number; windowMs: number };
export type RateDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

export class RateLimiter {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();
  private readonly now: () => number;

  constructor(now: () => number = Date.now) {
    this.now = now;
  }

  /** Counts one attempt for every key; refused when any key is over its limit. */
  hit(keys: Array<[key: string, rule: RateRule]>): RateDecision {
    const now = this.now();
    let retryAfter = 0;
    for (const [key, rule] of keys) {
      let w = this.windows.get(key);
      if (!w || w.resetAt <= now) {
        w = { count: 0, resetAt: now + rule.windowMs };
        this.windows.set(key, w);
      }
      w.count += 1;
      if (w.count > rule.limit) retryAfter = Math.max(retryAfter, Math.ceil((w.resetAt - now) / 1000));
    }
    if (this.windows.size > 50_000) this.sweep(now);
    return retryAfter > 0 ? { allowed: false, retryAfterSeconds: retryAfter } : { allowed: true };
  }

  private sweep(now: number) {
    for (const [key, w] of this.windows) if (w.resetAt <= now) this.windows.delete(key);
  }
}

export const AUTH_RATE_RULES = {
  signInPerIp: { limit: 30, windowMs: 15 * 60_000 },
  signUpPerIp: { limit: 10, windowMs: 60 * 60_000 },
  signUpPerEmail: { limit: 5, windowMs: 60 * 60_000 },
  googlePerIp: { limit: 30, windowMs: 15 * 60_000 },
  verificationResend: { limit: 3, windowMs: 60 * 60_000 },
  passwordResetPerIp: { limit: 10, windowMs: 60 * 60_000 },
  passwordResetPerEmail: { limit: 3, windowMs: 60 * 60_000 },
} satisfies Record<string, RateRule>;

export function tooManyAttemptsMessage(retryAfterSeconds: number): string {
  if (retryAfterSeconds < 60) {
    const s = Math.max(1, retryAfterSeconds);
    return `Too many attempts. Please wait ${s} second${s === 1 ? '' : 's'} and try again.`;
  }
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
  return `Too many attempts. Please wait ${minutes} minute${minutes === 1 ? '' : 's'} and try again.`;
}

/**
 * Sign-in throttling per account (ADR 021, after OWASP's "Blocking Brute Force Attacks" with device
 * cookies). Failed passwords are counted per key: `account:<email>` for clients without a device
 * cookie of that account, `device:<id>` for a browser where the owner signed in before. After
 * `free` failures each further attempt under the key must wait a delay that doubles with every
 * failure (1 s, 2 s, 4 s, ... up to `maxDelayMs`); an attempt during the delay is refused without
 * checking the password. Strangers guessing from many addresses slow down only the unknown-device
 * door; the owner's own browser has its own count and signs in at once. A key with no failure for
 * `forgetMs` starts over; a success clears its key.
 */
export type ThrottleRule = { free: number; baseDelayMs: number; maxDelayMs: number; forgetMs: number };

export const SIGN_IN_THROTTLE: ThrottleRule = { free: 5, baseDelayMs: 1000, maxDelayMs: 15 * 60_000, forgetMs: 60 * 60_000 };

export class SignInThrottle {
  private readonly failures = new Map<string, { count: number; lastAt: number; until: number }>();
  private readonly now: () => number;
  private readonly rule: ThrottleRule;

  constructor(now: () => number = Date.now, rule: ThrottleRule = SIGN_IN_THROTTLE) {
    this.now = now;
    this.rule = rule;
  }

  private entry(key: string) {
    const e = this.failures.get(key);
    if (e && this.now() - e.lastAt > this.rule.forgetMs) {
      this.failures.delete(key);
      return undefined;
    }
    return e;
  }

  /** Seconds an attempt under `key` must still wait; 0 when it may go ahead. */
  wait(key: string): number {
    const e = this.entry(key);
    return e && e.until > this.now() ? Math.ceil((e.until - this.now()) / 1000) : 0;
  }

  /** Counts a wrong password under `key`; past the free ones, the next attempt waits twice as long as the last. */
  fail(key: string): void {
    const now = this.now();
    const e = this.entry(key) ?? { count: 0, lastAt: now, until: 0 };
    e.count += 1;
    e.lastAt = now;
    if (e.count >= this.rule.free) e.until = now + Math.min(this.rule.maxDelayMs, this.rule.baseDelayMs * 2 ** (e.count - this.rule.free));
    this.failures.set(key, e);
    if (this.failures.size > 50_000) for (const [k] of this.failures) if (!this.entry(k)) this.failures.delete(k);
  }

  succeed(key: string): void {
    this.failures.delete(key);
  }
}
