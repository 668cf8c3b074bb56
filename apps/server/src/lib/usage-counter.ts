/**
 * Fixed-window counters in the database (table usage_counters): every API and worker process of an
 * installation counts together, with or without Redis. One key is one row; a hit is one atomic
 * upsert that starts a new window when the row's is over, else adds one while under `max`.
 */
import { eq, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { usageCounters } from '../db/schema';
import type { Clock } from './clock';

export interface CounterWindow {
  /** The start a new window gets (now, or the start of the UTC day). */
  start: Date;
  /** A row whose window started at or before this is over: the hit starts a new one. */
  overAtOrBefore: Date;
}

export type CounterHit = { allowed: true; count: number; windowStart: Date } | { allowed: false; windowStart: Date };

export function createUsageCounters(db: Database) {
  async function read(key: string): Promise<{ count: number; windowStart: Date } | undefined> {
    const [row] = await db.select({ count: usageCounters.count, windowStart: usageCounters.windowStart }).from(usageCounters).where(eq(usageCounters.key, key));
    return row;
  }

  return {
    read,

    /** Counts one use of `key` unless `max` are already counted in its current window. */
    async hit(key: string, max: number, window: CounterWindow): Promise<CounterHit> {
      if (max > 0) {
        const over = sql`${usageCounters.windowStart} <= ${window.overAtOrBefore.toISOString()}::timestamptz`;
        const [row] = await db
          .insert(usageCounters)
          .values({ key, windowStart: window.start, count: 1 })
          .onConflictDoUpdate({
            target: usageCounters.key,
            set: {
              count: sql`case when ${over} then 1 else ${usageCounters.count} + 1 end`,
              windowStart: sql`case when ${over} then excluded.window_start else ${usageCounters.windowStart} end`,
            },
            setWhere: sql`${over} or ${usageCounters.count} < ${max}`,
          })
          .returning({ count: usageCounters.count, windowStart: usageCounters.windowStart });
        if (row) return { allowed: true, count: row.count, windowStart: row.windowStart };
      }
      const current = await read(key);
      return { allowed: false, windowStart: current?.windowStart ?? window.start };
    },

    /** Takes one use back (a send that did not go out), if the window is still the one counted in. */
    async giveBack(key: string, windowStart: Date): Promise<void> {
      await db
        .update(usageCounters)
        .set({ count: sql`greatest(${usageCounters.count} - 1, 0)` })
        .where(sql`${usageCounters.key} = ${key} and ${usageCounters.windowStart} = ${windowStart.toISOString()}::timestamptz`);
    },
  };
}

export type UsageCounters = ReturnType<typeof createUsageCounters>;

/** Start of the UTC day of `ms`. */
export const utcDayStart = (ms: number) => new Date(Math.floor(ms / 86_400_000) * 86_400_000);

/**
 * A limit of `max` per `windowMs` per key, the window starting at the key's first use (like the
 * sign-in RateLimiter's `hit`, but counted in the database so every process shares it).
 */
export function createDbRateLimiter(counters: UsageCounters, options: { name: string; max: number; windowMs: number; clock: Clock }) {
  return {
    max: options.max,
    windowMs: options.windowMs,
    async hit(key: string): Promise<{ allowed: true } | { allowed: false; retryAfterSeconds: number }> {
      const nowMs = options.clock.nowMs();
      const now = new Date(nowMs);
      const verdict = await counters.hit(`${options.name}:${key}`, options.max, { start: now, overAtOrBefore: new Date(nowMs - options.windowMs) });
      if (verdict.allowed) return { allowed: true };
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((verdict.windowStart.getTime() + options.windowMs - nowMs) / 1000)) };
    },
  };
}

export type DbRateLimiter = ReturnType<typeof createDbRateLimiter>;
