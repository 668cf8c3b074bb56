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
  const connection = new Redis(settings.url, redisOptions);
  if (!options.blocking) failFastWhileDown(connection);
  return connection;
}

/**
 * Once a request-path connection has been up, losing it makes its commands fail at once (no offline
 * queue) until it is back: a request never waits out the reconnect backoff (up to 2 s a try, several
 * tries), and its caller falls back or answers 503 at once. Before the first connect commands wait in
 * the queue as usual, so a process started together with its Redis does not fail its first commands.
 */
function failFastWhileDown(connection: Redis): void {
  let wasReady = false;
  connection.on('ready', () => {
    wasReady = true;
    connection.options.enableOfflineQueue = true;
  });
  connection.on('close', () => {
    if (wasReady) connection.options.enableOfflineQueue = false;
  });
}

/** What ioredis throws for a command while Redis is unreachable (the offline queue off, its retries spent, or the connection closed under it). */
const UNAVAILABLE_MESSAGES = ["Stream isn't writeable", 'Reached the max retries per request limit', 'Connection is closed'];

/** Whether `error` is Redis being unreachable rather than a failed command: the request may succeed once it is back. */
export function isRedisUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return error.name === 'MaxRetriesPerRequestError' || UNAVAILABLE_MESSAGES.some((text) => error.message.includes(text));
}

/**
 * An 'error' listener for a connection (or a BullMQ queue or worker on it) that logs each distinct
 * message once per outage: ioredis reports every failed reconnect (every 2 s) otherwise. Call
 * `reset` when the connection is ready again.
 */
export function outageLogger(report: (message: string) => void): { onError(error: Error): void; reset(): void } {
  const seen = new Set<string>();
  return {
    onError(error) {
      if (seen.has(error.message)) return;
      seen.add(error.message);
      report(error.message);
    },
    reset() {
      seen.clear();
    },
  };
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
