/**
 * The two LiveBus implementations (lib/live-bus.ts): in one process an emitter; with REDIS_URL one
 * pub/sub channel `${REDIS_PREFIX}:live` carrying one JSON event a message, so an event published by
 * any process (a worker, another replica) reaches the streams every API process holds.
 */
import type { Redis } from 'ioredis';
import type { LiveBus, LiveEvent } from '../../lib/live-bus';
import { closeRedis, createRedisConnection, outageLogger, redisKey, type RedisSettings } from '../../lib/redis';

type Listener = (event: LiveEvent) => void;
interface BusLog {
  warn(message: string): void;
}

const silentLog: BusLog = { warn: () => undefined };

/** Calls every listener; one that throws is logged and does not stop the others. */
function fanOut(listeners: Set<Listener>, event: LiveEvent, log: BusLog): void {
  for (const listener of [...listeners]) {
    try {
      listener(event);
    } catch (error) {
      log.warn(`Live updates: a listener failed: ${(error as Error).message}`);
    }
  }
}

export function createInProcessBus(log: BusLog = silentLog): LiveBus {
  const listeners = new Set<Listener>();
  return {
    kind: 'in-process',
    async publish(event) {
      // Listeners run after the publisher's turn, as they would with Redis.
      queueMicrotask(() => fanOut(listeners, event, log));
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async close() {
      listeners.clear();
    },
  };
}

export const liveChannel = (prefix: string) => redisKey(prefix, 'live');

const EVENT_TYPES = new Set<LiveEvent['type']>(['quote', 'ideas', 'alert', 'symbols']);

/** A message from the channel, or null when it is not one of ours (never trusted blindly). */
function parseEvent(message: string): LiveEvent | null {
  try {
    const value = JSON.parse(message) as { type?: unknown };
    return value && typeof value === 'object' && EVENT_TYPES.has(value.type as LiveEvent['type']) ? (value as LiveEvent) : null;
  } catch {
    return null;
  }
}

/**
 * Redis pub/sub: a publisher connection (commands) and a subscriber connection (a subscribed
 * connection can run nothing else). Subscribes once, on creation; ioredis re-subscribes after a
 * reconnect. `ready()` answers once the subscription is in place.
 */
export function createRedisBus(settings: RedisSettings, log: BusLog = silentLog): LiveBus & { ready(): Promise<void> } {
  const channel = liveChannel(settings.prefix);
  const publisher: Redis = createRedisConnection(settings, { name: 'bus-pub' });
  const subscriber: Redis = createRedisConnection(settings, { name: 'bus-sub', blocking: true });
  const listeners = new Set<Listener>();
  // Each distinct error once per outage (ioredis reports every reconnect try); both reconnect by themselves.
  for (const [connection, role] of [[publisher, 'publisher'], [subscriber, 'subscriber']] as const) {
    const errors = outageLogger((message) => log.warn(`Live updates: Redis ${role}: ${message}`));
    connection.on('error', errors.onError);
    connection.on('ready', errors.reset);
  }
  subscriber.on('message', (from: string, message: string) => {
    if (from !== channel) return;
    const event = parseEvent(message);
    if (event) fanOut(listeners, event, log);
  });
  const subscribed = subscriber.subscribe(channel).then(
    () => undefined,
    (error: Error) => log.warn(`Live updates: could not subscribe to ${channel}: ${error.message}`),
  );
  let closed = false;
  return {
    kind: 'redis',
    ready: () => subscribed,
    async publish(event) {
      if (closed) return;
      try {
        await publisher.publish(channel, JSON.stringify(event));
      } catch (error) {
        log.warn(`Live updates: publish failed (${event.type}): ${(error as Error).message}`);
      }
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async close() {
      if (closed) return;
      closed = true;
      listeners.clear();
      await subscribed;
      await Promise.all([closeRedis(subscriber), closeRedis(publisher)]);
    },
  };
}
