/**
 * One store for the state that must be shared by every process of an installation when REDIS_URL is
 * set (issue 16): cached values (bytes with a TTL), fixed-window counters (sign-in and reset rate
 * limits), token buckets (a provider's free-tier rate) and short locks (cross-process single flight).
 * Two implementations: memory (one process, here) and Redis (cache-store.redis.ts); runtime.ts
 * chooses one where it builds the runtime, as it does the live bus.
 *
 * Windows and buckets run on the caller's clock (`nowMs` is passed in), never the store's: the same
 * FakeClock test behaves the same on both, and Redis TTLs only garbage-collect (generously).
 * Keys are logical ('login-email:a@b.c'); each implementation puts its own namespace in front.
 */
import { randomBytes } from 'node:crypto';

export type HitVerdict = { allowed: true } | { allowed: false; retryAfterMs: number };

export interface CacheStore {
  /** True when every process of the installation sees the same state (Redis). */
  readonly shared: boolean;
  /** The value under `key`, or undefined when absent or expired. */
  getBytes(key: string): Promise<Uint8Array | undefined>;
  /** Keeps `value` under `key` for `ttlMs` (real time: garbage collection, not freshness). */
  setBytes(key: string, value: Uint8Array, ttlMs: number): Promise<void>;
  deleteBytes(key: string): Promise<void>;
  /**
   * Fixed window of `windowMs` starting at the first hit: counts one hit, or refuses (without
   * counting) when `max` hits are already in the window, answering the ms until it ends.
   */
  hit(key: string, max: number, windowMs: number, nowMs: number): Promise<HitVerdict>;
  /** Forgets a window (e.g. after a successful sign-in). */
  resetHits(key: string): Promise<void>;
  /**
   * Token bucket of `burst` tokens refilled at `perMinute` a minute (full on first use): takes a
   * token and answers 0, or answers the ms until one is free (taking nothing).
   */
  take(key: string, perMinute: number, burst: number, nowMs: number): Promise<number>;
  /** Takes the lock `key` for `ttlMs` when it is free: answers the token that releases it, else undefined. */
  tryLock(key: string, ttlMs: number): Promise<string | undefined>;
  /** Releases the lock when `token` still holds it (an expired lock retaken by another is left alone). */
  unlock(key: string, token: string): Promise<void>;
  close(): Promise<void>;
}

/** Most windows, buckets, values and locks the memory store keeps; expired ones go first. */
export const MEMORY_STORE_MAX_KEYS = 100_000;

interface Window {
  startMs: number;
  count: number;
  windowMs: number;
}

/** The store of one process: today's in-memory behaviour. */
export function createMemoryStore(options: { maxKeys?: number; realNowMs?: () => number } = {}): CacheStore {
  const maxKeys = options.maxKeys ?? MEMORY_STORE_MAX_KEYS;
  const realNowMs = options.realNowMs ?? Date.now;
  const values = new Map<string, { bytes: Uint8Array; expiresAtMs: number }>();
  const windows = new Map<string, Window>();
  const buckets = new Map<string, { tokens: number; updatedMs: number }>();
  const locks = new Map<string, { token: string; expiresAtMs: number }>();

  /** Drops the oldest entries (Maps iterate in insertion order) once a map is full. */
  const bound = <V>(map: Map<string, V>, expired: (value: V) => boolean) => {
    if (map.size < maxKeys) return;
    for (const [key, value] of map) if (expired(value)) map.delete(key);
    for (const key of map.keys()) {
      if (map.size < maxKeys) break;
      map.delete(key);
    }
  };

  return {
    shared: false,
    async getBytes(key) {
      const entry = values.get(key);
      if (!entry) return undefined;
      if (entry.expiresAtMs <= realNowMs()) {
        values.delete(key);
        return undefined;
      }
      return entry.bytes;
    },
    async setBytes(key, value, ttlMs) {
      values.delete(key);
      bound(values, (entry) => entry.expiresAtMs <= realNowMs());
      values.set(key, { bytes: value, expiresAtMs: realNowMs() + ttlMs });
    },
    async deleteBytes(key) {
      values.delete(key);
    },
    async hit(key, max, windowMs, nowMs) {
      let window = windows.get(key);
      if (!window || nowMs - window.startMs >= windowMs) {
        if (!window) bound(windows, (w) => nowMs - w.startMs >= w.windowMs);
        window = { startMs: nowMs, count: 0, windowMs };
        windows.set(key, window);
      }
      if (window.count >= max) return { allowed: false, retryAfterMs: window.startMs + windowMs - nowMs };
      window.count += 1;
      return { allowed: true };
    },
    async resetHits(key) {
      windows.delete(key);
    },
    async take(key, perMinute, burst, nowMs) {
      let bucket = buckets.get(key);
      if (!bucket) {
        bound(buckets, () => false);
        bucket = { tokens: burst, updatedMs: nowMs };
        buckets.set(key, bucket);
      }
      bucket.tokens = Math.min(burst, bucket.tokens + (Math.max(0, nowMs - bucket.updatedMs) * perMinute) / 60_000);
      bucket.updatedMs = Math.max(bucket.updatedMs, nowMs);
      if (bucket.tokens >= 1) {
        bucket.tokens -= 1;
        return 0;
      }
      return Math.ceil(((1 - bucket.tokens) * 60_000) / perMinute);
    },
    async tryLock(key, ttlMs) {
      const held = locks.get(key);
      const now = realNowMs();
      if (held && held.expiresAtMs > now) return undefined;
      bound(locks, (lock) => lock.expiresAtMs <= now);
      const token = randomBytes(12).toString('hex');
      locks.set(key, { token, expiresAtMs: now + ttlMs });
      return token;
    },
    async unlock(key, token) {
      if (locks.get(key)?.token === token) locks.delete(key);
    },
    async close() {
      values.clear();
      windows.clear();
      buckets.clear();
      locks.clear();
    },
  };
}
