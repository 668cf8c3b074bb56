import { HttpError } from './errors';
import { createMemoryStore, type CacheStore } from './cache-store';
import type { Clock } from './clock';

export interface RateLimiterOptions {
  /** Where the windows live (default: a memory store of its own). On Redis every process counts together. */
  store?: CacheStore;
  /** Keeps this limiter's keys apart from others' in one store (default 'limit'). */
  name?: string;
}

/**
 * Fixed-window counter per key (an e-mail, an address), on the app's CacheStore: in memory one
 * process owns its counts; on Redis (REDIS_URL) the limit holds for the whole installation.
 * The window runs on `clock`, not the store's time. When the store fails (Redis down) the limiter
 * counts in this process's memory meanwhile: sign-in keeps working and keeps a (per-process) limit.
 */
export class RateLimiter {
  private readonly store: CacheStore;
  private readonly name: string;
  private fallback: CacheStore | undefined;

  constructor(
    private readonly max: number,
    private readonly windowMs: number,
    private readonly clock: Clock,
    options: RateLimiterOptions = {},
  ) {
    this.store = options.store ?? createMemoryStore();
    this.name = options.name ?? 'limit';
  }

  /** Counts one attempt; answers how many seconds to wait when the key is over its limit. */
  async hit(key: string): Promise<{ allowed: true } | { allowed: false; retryAfterSeconds: number }> {
    const name = `${this.name}:${key}`;
    const nowMs = this.clock.nowMs();
    const verdict = await this.store.hit(name, this.max, this.windowMs, nowMs).catch(() => this.local().hit(name, this.max, this.windowMs, nowMs));
    if (verdict.allowed) return verdict;
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(verdict.retryAfterMs / 1000)) };
  }

  /** Forgets a key, e.g. after a successful login. */
  async reset(key: string): Promise<void> {
    await this.fallback?.resetHits(`${this.name}:${key}`);
    await this.store.resetHits(`${this.name}:${key}`).catch(() => undefined);
  }

  private local(): CacheStore {
    this.fallback ??= createMemoryStore();
    return this.fallback;
  }
}

/**
 * Counts one attempt against each limiter, `keys[i]` for `limiters[i]`; over any limit throws the 429
 * with a msg saying what and when to retry ("Too many login attempts. Please try again in 5 minutes.").
 */
export async function enforce(limiters: RateLimiter[], keys: string[], what: string): Promise<void> {
  for (const [index, limiter] of limiters.entries()) {
    const verdict = await limiter.hit(keys[index]!);
    if (!verdict.allowed) {
      const minutes = Math.ceil(verdict.retryAfterSeconds / 60);
      const when = verdict.retryAfterSeconds < 90 ? `${verdict.retryAfterSeconds} seconds` : `${minutes} minutes`;
      const msg = `Too many ${what} attempts. Please try again in ${when}.`;
      throw new HttpError(429, msg, { error: msg, headers: { 'retry-after': String(verdict.retryAfterSeconds) } });
    }
  }
}
