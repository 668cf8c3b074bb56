/**
 * Which symbols open streams show (the live-quote publisher reads only these), and which user owns
 * each open stream (the symbols call may land on a replica that does not hold the stream). Entries
 * expire unless the holder's heartbeat refreshes them, so a crashed replica's streams fade away.
 * In memory for one process; with REDIS_URL a sorted set `${prefix}:live:wanted` (symbol → expiry ms)
 * and a key per stream `${prefix}:live:conn:{id}` (user id, with a TTL).
 */
import type { Redis } from 'ioredis';
import type { Clock } from '../../lib/clock';
import { closeRedis, createRedisConnection, redisKey, type RedisSettings } from '../../lib/redis';

/** Three heartbeats: a stream whose holder stopped refreshing it is forgotten after this. */
export const LIVE_ENTRY_TTL_MS = 45_000;

export interface LiveRegistry {
  readonly kind: 'memory' | 'redis';
  /** Marks the symbols as shown (until now + TTL). */
  touchSymbols(symbols: readonly string[]): Promise<void>;
  /** The symbols some open stream shows, sorted. */
  wantedSymbols(): Promise<string[]>;
  /** Records (or refreshes) a stream's owner. */
  claimConnection(connectionId: string, userId: number): Promise<void>;
  /** The owner of an open stream, or null when no process holds one by that id. */
  ownerOf(connectionId: string): Promise<number | null>;
  dropConnection(connectionId: string): Promise<void>;
  close(): Promise<void>;
}

export function createMemoryRegistry(clock: Clock): LiveRegistry {
  const symbols = new Map<string, number>();
  const connections = new Map<string, { userId: number; expiresAtMs: number }>();
  return {
    kind: 'memory',
    async touchSymbols(list) {
      const expiresAtMs = clock.nowMs() + LIVE_ENTRY_TTL_MS;
      for (const symbol of list) symbols.set(symbol, Math.max(expiresAtMs, symbols.get(symbol) ?? 0));
    },
    async wantedSymbols() {
      const now = clock.nowMs();
      for (const [symbol, expiresAtMs] of symbols) if (expiresAtMs <= now) symbols.delete(symbol);
      return [...symbols.keys()].sort();
    },
    async claimConnection(connectionId, userId) {
      connections.set(connectionId, { userId, expiresAtMs: clock.nowMs() + LIVE_ENTRY_TTL_MS });
    },
    async ownerOf(connectionId) {
      const entry = connections.get(connectionId);
      if (!entry) return null;
      if (entry.expiresAtMs <= clock.nowMs()) {
        connections.delete(connectionId);
        return null;
      }
      return entry.userId;
    },
    async dropConnection(connectionId) {
      connections.delete(connectionId);
    },
    async close() {
      symbols.clear();
      connections.clear();
    },
  };
}

export function createRedisRegistry(settings: RedisSettings, clock: Clock): LiveRegistry {
  const redis: Redis = createRedisConnection(settings, { name: 'live-registry' });
  redis.on('error', () => undefined);
  const wantedKey = redisKey(settings.prefix, 'live', 'wanted');
  const connectionKey = (id: string) => redisKey(settings.prefix, 'live', 'conn', id);
  return {
    kind: 'redis',
    async touchSymbols(list) {
      if (list.length === 0) return;
      const expiresAtMs = clock.nowMs() + LIVE_ENTRY_TTL_MS;
      // GT: a later expiry another stream set is never shortened.
      await redis.zadd(wantedKey, 'GT', ...list.flatMap((symbol) => [String(expiresAtMs), symbol]));
    },
    async wantedSymbols() {
      const now = clock.nowMs();
      await redis.zremrangebyscore(wantedKey, '-inf', String(now));
      return (await redis.zrange(wantedKey, '0', '-1')).sort();
    },
    async claimConnection(connectionId, userId) {
      await redis.set(connectionKey(connectionId), String(userId), 'PX', LIVE_ENTRY_TTL_MS);
    },
    async ownerOf(connectionId) {
      const value = await redis.get(connectionKey(connectionId));
      return value === null ? null : Number(value);
    },
    async dropConnection(connectionId) {
      await redis.del(connectionKey(connectionId));
    },
    async close() {
      await closeRedis(redis);
    },
  };
}
