import type { Clock } from './clock';

/**
 * Fixed-window counter per key (an e-mail, an address). In memory: one process owns its counts;
 * the scale-out issue moves this to Redis.
 */
export class RateLimiter {
  private readonly windows = new Map<string, { startMs: number; count: number }>();

  constructor(
    private readonly max: number,
    private readonly windowMs: number,
    private readonly clock: Clock,
    private readonly maxKeys = 100_000,
  ) {}

  /** Counts one attempt; answers how many seconds to wait when the key is over its limit. */
  hit(key: string): { allowed: true } | { allowed: false; retryAfterSeconds: number } {
    const now = this.clock.nowMs();
    let window = this.windows.get(key);
    if (!window || now - window.startMs >= this.windowMs) {
      if (!window && this.windows.size >= this.maxKeys) this.evictExpired(now);
      window = { startMs: now, count: 0 };
      this.windows.set(key, window);
    }
    if (window.count >= this.max) {
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((window.startMs + this.windowMs - now) / 1000)) };
    }
    window.count += 1;
    return { allowed: true };
  }

  /** Forgets a key, e.g. after a successful login. */
  reset(key: string): void {
    this.windows.delete(key);
  }

  private evictExpired(now: number): void {
    for (const [key, window] of this.windows) {
      if (now - window.startMs >= this.windowMs) this.windows.delete(key);
    }
    // Still full: drop the oldest windows rather than grow without bound.
    for (const key of this.windows.keys()) {
      if (this.windows.size < this.maxKeys) break;
      this.windows.delete(key);
    }
  }
}
