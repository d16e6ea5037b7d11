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
  signInPerEmail: { limit: 10, windowMs: 15 * 60_000 },
  signUpPerIp: { limit: 10, windowMs: 60 * 60_000 },
  signUpPerEmail: { limit: 5, windowMs: 60 * 60_000 },
  googlePerIp: { limit: 30, windowMs: 15 * 60_000 },
  verificationResend: { limit: 3, windowMs: 60 * 60_000 },
} satisfies Record<string, RateRule>;

export function tooManyAttemptsMessage(retryAfterSeconds: number): string {
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
  return `Too many attempts. Please wait ${minutes} minute${minutes === 1 ? '' : 's'} and try again.`;
}
