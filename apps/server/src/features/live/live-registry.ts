/**
 * Which symbols open streams show (the live-quote publisher reads only these), and which user owns
 * each open stream (the symbols call may land on a replica that does not hold the stream). Entries
 * expire unless the holder's heartbeat refreshes them, so a crashed replica's streams fade away.
 * It also holds the per-user stream cap for the whole installation: `openConnection` counts the
 * user's unexpired streams on every replica and records the new one in the same atomic step.
 * In memory for one process; with REDIS_URL a sorted set `${prefix}:live:wanted` (symbol → expiry ms),
 * a key per stream `${prefix}:live:conn:{id}` (user id, with a TTL) and a sorted set per user
 * `${prefix}:live:user:{userId}` (stream id → expiry ms, with a TTL). Expiry scores use the caller's
 * clock; a key's own TTL only collects it once nobody refreshes it.
 */
import type { ChainableCommander, Redis } from 'ioredis';
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
  /**
   * Records a new stream of the user when the user has fewer than `max` unexpired streams in the
   * whole installation (true), else records nothing (false). Check and record are one atomic step.
   */
  openConnection(connectionId: string, userId: number, max: number): Promise<boolean>;
  /** Refreshes a stream's owner and its place in the user's count (the heartbeat). */
  claimConnection(connectionId: string, userId: number): Promise<void>;
  /** The owner of an open stream, or null when no process holds one by that id. */
  ownerOf(connectionId: string): Promise<number | null>;
  /** Forgets a stream (its owner and its place in the user's count). */
  dropConnection(connectionId: string, userId: number): Promise<void>;
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
    async openConnection(connectionId, userId, max) {
      // No await between the count and the set: one step on the event loop.
      const now = clock.nowMs();
      let open = 0;
      for (const [id, entry] of connections) {
        if (entry.expiresAtMs <= now) connections.delete(id);
        else if (entry.userId === userId && id !== connectionId) open += 1;
      }
      if (open >= max) return false;
      connections.set(connectionId, { userId, expiresAtMs: now + LIVE_ENTRY_TTL_MS });
      return true;
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

/**
 * KEYS[1] the user's set, KEYS[2] the stream's key; ARGV now ms, expiry ms, max, stream id, user id,
 * TTL ms → 1 recorded, 0 the user is at the cap. Expired members go first, so a crashed replica's
 * streams stop counting; a stream already in the set (an id opened again) is not counted against itself.
 */
const OPEN_SCRIPT = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if not redis.call('ZSCORE', KEYS[1], ARGV[4]) and redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then
  return 0
end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[4])
redis.call('PEXPIRE', KEYS[1], ARGV[6])
redis.call('SET', KEYS[2], ARGV[5], 'PX', ARGV[6])
return 1
`;

/** Runs a MULTI and throws the first command's error (exec itself answers them as values). */
async function execAll(multi: ChainableCommander): Promise<void> {
  const results = await multi.exec();
  const failed = results?.find(([error]) => error);
  if (failed) throw failed[0];
}

interface RegistryCommands {
  sbLiveOpen(userKey: string, connectionKey: string, nowMs: number, expiresAtMs: number, max: number, connectionId: string, userId: number, ttlMs: number): Promise<number>;
}

export function createRedisRegistry(settings: RedisSettings, clock: Clock): LiveRegistry {
  const redis = createRedisConnection(settings, { name: 'live-registry' }) as Redis & RegistryCommands;
  redis.on('error', () => undefined);
  redis.defineCommand('sbLiveOpen', { numberOfKeys: 2, lua: OPEN_SCRIPT });
  const wantedKey = redisKey(settings.prefix, 'live', 'wanted');
  const connectionKey = (id: string) => redisKey(settings.prefix, 'live', 'conn', id);
  const userKey = (userId: number) => redisKey(settings.prefix, 'live', 'user', userId);
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
    async openConnection(connectionId, userId, max) {
      const now = clock.nowMs();
      const recorded = await redis.sbLiveOpen(userKey(userId), connectionKey(connectionId), now, now + LIVE_ENTRY_TTL_MS, max, connectionId, userId, LIVE_ENTRY_TTL_MS);
      return recorded === 1;
    },
    async claimConnection(connectionId, userId) {
      // Added back when it had expired (a paused replica): the count follows the streams really open.
      await execAll(
        redis
          .multi()
          .set(connectionKey(connectionId), String(userId), 'PX', LIVE_ENTRY_TTL_MS)
          .zadd(userKey(userId), String(clock.nowMs() + LIVE_ENTRY_TTL_MS), connectionId)
          .pexpire(userKey(userId), LIVE_ENTRY_TTL_MS),
      );
    },
    async ownerOf(connectionId) {
      const value = await redis.get(connectionKey(connectionId));
      return value === null ? null : Number(value);
    },
    async dropConnection(connectionId, userId) {
      await execAll(redis.multi().del(connectionKey(connectionId)).zrem(userKey(userId), connectionId));
    },
    async close() {
      await closeRedis(redis);
    },
  };
}
