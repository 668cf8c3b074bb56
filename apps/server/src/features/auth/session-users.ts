import type pg from 'pg';
import type { Clock } from '../../lib/clock';
import type { UsersRepo } from './users.repo';

export const USER_CHANGED_CHANNEL = 'signalboard_user_changed';
/** `peek`'s answer when the cache cannot say: ask `get`. */
export const MISS: unique symbol = Symbol('session user not cached');

export interface SessionUser {
  id: number;
  email: string;
  isActive: boolean;
}

interface Logger {
  warn(obj: object, msg: string): void;
}

/**
 * The account behind each authenticated request, cached so a request does not pay a database round
 * trip. Correctness comes from PostgreSQL: a trigger announces every change to a user on
 * USER_CHANGED_CHANNEL, and this cache LISTENs and drops that user at once, whichever process made
 * the change (another replica, the admin CLI). While the listening connection is down the cache is
 * bypassed, so a lost notification can never keep a deactivated account signed in.
 */
export function createSessionUsers(options: {
  users: Pick<UsersRepo, 'findSessionUser'>;
  pool: pg.Pool;
  clock: Clock;
  log: Logger;
  ttlMs?: number;
  maxEntries?: number;
}) {
  const { users, pool, clock, log } = options;
  const ttlMs = options.ttlMs ?? 60_000;
  const maxEntries = options.maxEntries ?? 10_000;
  const cache = new Map<number, { user: SessionUser | undefined; atMs: number }>();
  /** Told of each change: a user's id, or null when any user may have changed unseen. */
  const changeListeners = new Set<(id: number | null) => void>();
  const announce = (id: number | null) => {
    for (const listener of changeListeners) listener(id);
  };
  let listener: pg.PoolClient | undefined;
  let listening = false;
  let closed = false;
  let retryTimer: NodeJS.Timeout | undefined;
  let retryDelayMs = 500;

  const onNotification = (message: pg.Notification) => {
    if (message.channel !== USER_CHANGED_CHANNEL) return;
    const id = Number(message.payload);
    if (Number.isSafeInteger(id)) cache.delete(id);
    else cache.clear();
    announce(Number.isSafeInteger(id) ? id : null);
  };

  const onListenerLost = (error?: Error) => {
    if (!listening && !listener) return;
    listening = false;
    cache.clear();
    const lost = listener;
    listener = undefined;
    lost?.removeListener('notification', onNotification);
    lost?.release(error ?? true);
    if (!closed) {
      log.warn({ err: error }, 'lost the user-change listener; authenticating from the database until it is back');
      scheduleReconnect();
    }
  };

  function scheduleReconnect() {
    retryTimer = setTimeout(() => void connect(), retryDelayMs);
    retryTimer.unref();
    // At most a few seconds apart: a restarted database is listened to (and the cache used) again soon.
    retryDelayMs = Math.min(retryDelayMs * 2, 4_000);
  }

  async function connect(): Promise<void> {
    if (closed) return;
    try {
      const client = await pool.connect();
      client.on('notification', onNotification);
      client.once('error', (error) => onListenerLost(error));
      client.once('end', () => onListenerLost());
      await client.query(`LISTEN ${USER_CHANGED_CHANNEL}`);
      listener = client;
      const wasLost = retryTimer !== undefined;
      cache.clear(); // changes made while not listening are unknown
      listening = true;
      retryDelayMs = 500;
      if (wasLost) announce(null);
    } catch (error) {
      log.warn({ err: error }, 'could not listen for user changes; retrying');
      scheduleReconnect();
    }
  }

  /** The cached entry of `id` while it may be trusted: listening, and younger than the TTL. */
  const fresh = (id: number, now: number) => {
    const hit = listening ? cache.get(id) : undefined;
    return hit && now - hit.atMs < ttlMs ? hit : undefined;
  };

  return {
    start: connect,

    async get(id: number): Promise<SessionUser | undefined> {
      const now = clock.nowMs();
      const hit = fresh(id, now);
      if (hit) return hit.user;
      const user = await users.findSessionUser(id);
      if (listening) {
        if (cache.size >= maxEntries) cache.delete(cache.keys().next().value!);
        cache.set(id, { user, atMs: now });
      }
      return user;
    },

    /**
     * What `get` would answer from memory, without waiting: the user (or undefined for none) when
     * the cache holds `id` and may be trusted, else MISS (then call `get`). The authenticated
     * request's hot path: no promise when the answer is known.
     */
    peek(id: number): SessionUser | undefined | typeof MISS {
      const hit = fresh(id, clock.nowMs());
      return hit ? hit.user : MISS;
    },

    /**
     * Calls `listener` with the id of each user changed by any process (the notification), or with
     * null when changes may have gone unseen (the listening connection was lost and is back): each
     * holder of something a user may lose (an open live stream) checks that user again with `get`.
     * Answers the unsubscribe.
     */
    onChange(listener: (id: number | null) => void): () => void {
      changeListeners.add(listener);
      return () => changeListeners.delete(listener);
    },

    /** Drops a user this process just changed (the notification will follow). */
    invalidate(id: number): void {
      cache.delete(id);
    },

    async close(): Promise<void> {
      closed = true;
      changeListeners.clear();
      if (retryTimer) clearTimeout(retryTimer);
      listening = false;
      cache.clear();
      const client = listener;
      listener = undefined;
      if (client) {
        client.removeAllListeners('error');
        client.removeAllListeners('end');
        await client.query(`UNLISTEN ${USER_CHANGED_CHANNEL}`).catch(() => undefined);
        client.release();
      }
    },

    /** For tests and health: whether the cache is in use. */
    isListening: () => listening,
  };
}

export type SessionUsers = ReturnType<typeof createSessionUsers>;
