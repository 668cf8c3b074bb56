/**
 * The CacheStore on Redis (ioredis): every process of the installation shares its values, windows,
 * buckets and locks. Each read-modify-write is one Lua script (atomic on the server); windows and
 * buckets use the caller's `nowMs`, and PEXPIRE only collects keys nobody uses any more.
 * Locks are the standard single-instance Redis lock: SET key token NX PX, released by a
 * compare-and-delete script so an expired lock retaken by another process is never released by us.
 */
import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { CacheStore, HitVerdict } from './cache-store';
import { closeRedis, createRedisConnection, redisKey, type RedisSettings } from './redis';

/** A window or bucket untouched this long past its own span is collected. */
const GC_MARGIN_MS = 60 * 60 * 1000;

/** KEYS[1] window; ARGV now, max, windowMs, gcMs → {1, 0} counted, or {0, ms until the window ends}. */
const HIT_SCRIPT = `
local now = tonumber(ARGV[1])
local max = tonumber(ARGV[2])
local win = tonumber(ARGV[3])
local state = redis.call('HMGET', KEYS[1], 's', 'c')
local s = tonumber(state[1])
local c = tonumber(state[2])
if (not s) or now - s >= win then
  redis.call('HSET', KEYS[1], 's', ARGV[1], 'c', 0)
  s = now
  c = 0
end
if c >= max then
  return {0, s + win - now}
end
redis.call('HINCRBY', KEYS[1], 'c', 1)
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return {1, 0}
`;

/** KEYS[1] bucket; ARGV now, perMinute, burst, gcMs → 0 taken, or ms until a token is free. */
const TAKE_SCRIPT = `
local now = tonumber(ARGV[1])
local rate = tonumber(ARGV[2])
local burst = tonumber(ARGV[3])
local state = redis.call('HMGET', KEYS[1], 't', 'u')
local tokens = tonumber(state[1])
local updated = tonumber(state[2])
if not tokens then
  tokens = burst
  updated = now
end
local elapsed = now - updated
if elapsed < 0 then elapsed = 0 end
tokens = math.min(burst, tokens + elapsed * rate / 60000)
if now > updated then updated = now end
local wait = 0
if tokens >= 1 then
  tokens = tokens - 1
else
  wait = math.ceil((1 - tokens) * 60000 / rate)
end
redis.call('HSET', KEYS[1], 't', string.format('%.17g', tokens), 'u', string.format('%.17g', updated))
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return wait
`;

const UNLOCK_SCRIPT = `
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
`;

interface StoreCommands {
  sbHit(key: string, nowMs: number, max: number, windowMs: number, gcMs: number): Promise<[number, number]>;
  sbTake(key: string, nowMs: number, perMinute: number, burst: number, gcMs: number): Promise<number>;
  sbUnlock(key: string, token: string): Promise<number>;
}

export interface RedisStoreOptions {
  connectionName?: string;
  /** Told about connection errors (once per distinct message: ioredis retries every few seconds). */
  onError?: (error: Error) => void;
}

/** The store on Redis, with a connection of its own (named 'cache'). */
export function createRedisStore(settings: RedisSettings, options: RedisStoreOptions = {}): CacheStore {
  const redis = createRedisConnection(settings, { name: options.connectionName ?? 'cache' }) as Redis & StoreCommands;
  let lastError = '';
  redis.on('error', (error: Error) => {
    if (error.message === lastError) return;
    lastError = error.message;
    options.onError?.(error);
  });
  redis.on('ready', () => {
    lastError = '';
  });
  redis.defineCommand('sbHit', { numberOfKeys: 1, lua: HIT_SCRIPT });
  redis.defineCommand('sbTake', { numberOfKeys: 1, lua: TAKE_SCRIPT });
  redis.defineCommand('sbUnlock', { numberOfKeys: 1, lua: UNLOCK_SCRIPT });
  const key = (kind: string, name: string) => redisKey(settings.prefix, kind, name);

  return {
    shared: true,
    async getBytes(name) {
      const value = await redis.getBuffer(key('v', name));
      return value ?? undefined;
    },
    async setBytes(name, value, ttlMs) {
      await redis.set(key('v', name), Buffer.from(value.buffer, value.byteOffset, value.byteLength), 'PX', Math.max(1, Math.ceil(ttlMs)));
    },
    async deleteBytes(name) {
      await redis.del(key('v', name));
    },
    async hit(name, max, windowMs, nowMs): Promise<HitVerdict> {
      const [allowed, retryAfterMs] = await redis.sbHit(key('rl', name), nowMs, max, windowMs, windowMs + GC_MARGIN_MS);
      return allowed === 1 ? { allowed: true } : { allowed: false, retryAfterMs };
    },
    async resetHits(name) {
      await redis.del(key('rl', name));
    },
    async take(name, perMinute, burst, nowMs) {
      // Empty to full takes burst / perMinute minutes; past that the key holds nothing a new bucket would not.
      const gcMs = Math.ceil((burst / perMinute) * 60_000) + GC_MARGIN_MS;
      return redis.sbTake(key('tb', name), nowMs, perMinute, burst, gcMs);
    },
    async tryLock(name, ttlMs) {
      const token = randomBytes(12).toString('hex');
      const answer = await redis.set(key('lock', name), token, 'PX', Math.max(1, Math.ceil(ttlMs)), 'NX');
      return answer === 'OK' ? token : undefined;
    },
    async unlock(name, token) {
      await redis.sbUnlock(key('lock', name), token);
    },
    async close() {
      await closeRedis(redis);
    },
  };
}
