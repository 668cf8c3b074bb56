/**
 * Redis connections (ioredis) for the scale-out path (REDIS_URL). Every component opens its own
 * named connection: a subscriber connection cannot run commands, and BullMQ's blocking workers need
 * `maxRetriesPerRequest: null`. Keys: every key this installation writes starts with REDIS_PREFIX
 * (`redisKey`), and BullMQ queues use the same prefix, so several installations (or test files)
 * share one Redis without meeting.
 */
import { Redis, type RedisOptions } from 'ioredis';

export interface RedisSettings {
  url: string;
  /** REDIS_PREFIX: the first part of every key and queue name. */
  prefix: string;
}

export interface RedisConnectionOptions {
  /** Shown in `CLIENT LIST` and in our logs: 'cache', 'bus-sub', 'bullmq-worker', … */
  name: string;
  /**
   * BullMQ workers and subscribers: commands wait for a reconnect instead of failing after 20 tries
   * (BullMQ requires null for its blocking connections). Request-path connections keep a bound so a
   * Redis outage answers an error instead of hanging a request.
   */
  blocking?: boolean;
}

export function createRedisConnection(settings: RedisSettings, options: RedisConnectionOptions): Redis {
  const redisOptions: RedisOptions = {
    connectionName: `${settings.prefix}:${options.name}`,
    maxRetriesPerRequest: options.blocking ? null : 3,
    enableReadyCheck: true,
    // Reconnect with a capped backoff: 50 ms, 100 ms, … up to 2 s between tries, forever.
    retryStrategy: (times) => Math.min(times * 50, 2000),
    lazyConnect: false,
  };
  return new Redis(settings.url, redisOptions);
}

/** `prefix:part:part…` — the one way keys are named. */
export function redisKey(prefix: string, ...parts: Array<string | number>): string {
  return [prefix, ...parts].join(':');
}

/** Closes a connection: QUIT when it is up, otherwise drops it (never waits on a dead server). */
export async function closeRedis(connection: Redis): Promise<void> {
  if (connection.status === 'ready') {
    await connection.quit().catch(() => connection.disconnect());
  } else {
    connection.disconnect();
  }
}
