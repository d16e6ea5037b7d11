/**
 * Attempt counters for the account doors (sign-in, sign-up, password reset, verification mail).
 * Keys name what is limited ("signin:ip:1.2.3.4", "signin:email:a@b.c"). Every instance of a
 * deployment must count together, or alternating instances (or `WEB_CONCURRENCY` workers) would
 * multiply the limits: the composition root uses counters in PostgreSQL (`server/attempt-limits.ts`);
 * the memory ones here serve unit tests and the insurance while the database does not answer.
 */
export type RateRule = { limit: number; windowMs: number };
export type RateDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/** Fixed windows per key: counts one attempt for every key, refused when any key is over its limit. */
export interface AttemptLimiter {
  hit(keys: Array<[key: string, rule: RateRule]>): Promise<RateDecision>;
}

/** An AttemptLimiter in one process's memory. */
export class MemoryRateLimiter implements AttemptLimiter {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();
  private readonly now: () => number;

  constructor(now: () => number = Date.now) {
    this.now = now;
  }

  async hit(keys: Array<[key: string, rule: RateRule]>): Promise<RateDecision> {
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

/** How long to wait, as people say it: seconds under a minute, else whole minutes (rounded up). */
export function waitAmount(retryAfterSeconds: number): { count: number; unit: 'seconds' | 'minutes' } {
  if (retryAfterSeconds < 60) return { count: Math.max(1, retryAfterSeconds), unit: 'seconds' };
  return { count: Math.max(1, Math.ceil(retryAfterSeconds / 60)), unit: 'minutes' };
}

export function tooManyAttemptsMessage(retryAfterSeconds: number): string {
  const { count, unit } = waitAmount(retryAfterSeconds);
  return `Too many attempts. Please wait ${count} ${count === 1 ? unit.slice(0, -1) : unit} and try again.`;
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

/** One key's failures: how many, the last one's time, and until when the next attempt must wait (ms). */
export type ThrottleEntry = { count: number; lastAt: number; until: number };

/** Where the failures are kept; `recordFailure` counts one atomically (two instances never lose one). */
export interface ThrottleStore {
  get(key: string): Promise<ThrottleEntry | null>;
  /** Counts a failure at `now` (starting over when the last was longer than `forgetMs` ago); the new count. */
  recordFailure(key: string, now: number, forgetMs: number): Promise<number>;
  setUntil(key: string, until: number): Promise<void>;
  clear(key: string): Promise<void>;
}

/** A ThrottleStore in one process's memory. */
export class MemoryThrottleStore implements ThrottleStore {
  private readonly failures = new Map<string, ThrottleEntry>();

  async get(key: string) {
    return this.failures.get(key) ?? null;
  }

  async recordFailure(key: string, now: number, forgetMs: number) {
    const e = this.failures.get(key);
    const next = e && now - e.lastAt <= forgetMs ? { ...e, count: e.count + 1, lastAt: now } : { count: 1, lastAt: now, until: 0 };
    this.failures.set(key, next);
    if (this.failures.size > 50_000) for (const [k, v] of this.failures) if (now - v.lastAt > forgetMs) this.failures.delete(k);
    return next.count;
  }

  async setUntil(key: string, until: number) {
    const e = this.failures.get(key);
    if (e) e.until = until;
  }

  async clear(key: string) {
    this.failures.delete(key);
  }
}

export class SignInThrottle {
  private readonly now: () => number;
  private readonly rule: ThrottleRule;
  private readonly store: ThrottleStore;

  constructor(now: () => number = Date.now, rule: ThrottleRule = SIGN_IN_THROTTLE, store: ThrottleStore = new MemoryThrottleStore()) {
    this.now = now;
    this.rule = rule;
    this.store = store;
  }

  /** Seconds an attempt under `key` must still wait; 0 when it may go ahead. */
  async wait(key: string): Promise<number> {
    const e = await this.store.get(key);
    const now = this.now();
    if (!e || now - e.lastAt > this.rule.forgetMs) return 0;
    return e.until > now ? Math.ceil((e.until - now) / 1000) : 0;
  }

  /** Counts a wrong password under `key`; past the free ones, the next attempt waits twice as long as the last. */
  async fail(key: string): Promise<void> {
    const now = this.now();
    const count = await this.store.recordFailure(key, now, this.rule.forgetMs);
    if (count >= this.rule.free) await this.store.setUntil(key, now + Math.min(this.rule.maxDelayMs, this.rule.baseDelayMs * 2 ** (count - this.rule.free)));
  }

  async succeed(key: string): Promise<void> {
    await this.store.clear(key);
  }
}
