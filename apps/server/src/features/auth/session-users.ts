import type pg from 'pg';
import type { Clock } from '../../lib/clock';
import type { SessionAuth, SessionsRepo } from './sessions.repo';

export const USER_CHANGED_CHANNEL = 'signalboard_user_changed';
export const SESSION_CHANGED_CHANNEL = 'signalboard_session_changed';
/** `peek`'s answer when the cache cannot say: ask `get`. */
export const MISS: unique symbol = Symbol('session not cached');

export type { SessionAuth };

/** What changed, as announced to holders: a user (any of its sessions may be affected), one session, or null for "anything may have". */
/** How often a session's last use is written (the Sessions list shows minutes, not seconds). */
const TOUCH_EVERY_MS = 60_000;

export type SessionChange = { userId: number } | { sessionId: string } | null;

interface Logger {
  warn(obj: object, msg: string): void;
}

/**
 * The session and account behind each authenticated request (keyed by the token's `sid`), cached so
 * a request does not pay a database round trip. Correctness comes from PostgreSQL: triggers announce
 * every change to a user on USER_CHANGED_CHANNEL and every ended or lifted session on
 * SESSION_CHANGED_CHANNEL; this cache LISTENs and drops what changed at once, whichever process made
 * the change (another replica, the admin CLI). While the listening connection is down the cache is
 * bypassed, so a lost notification can never keep an ended session or a deactivated account signed in.
 */
export function createSessionUsers(options: {
  sessions: Pick<SessionsRepo, 'findAuth' | 'touch'>;
  pool: pg.Pool;
  clock: Clock;
  log: Logger;
  ttlMs?: number;
  maxEntries?: number;
}) {
  const { sessions, pool, clock, log } = options;
  const ttlMs = options.ttlMs ?? 60_000;
  const maxEntries = options.maxEntries ?? 10_000;
  const cache = new Map<string, { session: SessionAuth | undefined; atMs: number }>();
  /** When this process last wrote each session's last_seen_at. */
  const touchedAtMs = new Map<string, number>();
  /** Told of each change (SessionChange). */
  const changeListeners = new Set<(change: SessionChange) => void>();
  const announce = (change: SessionChange) => {
    for (const listener of changeListeners) listener(change);
  };
  let listener: pg.PoolClient | undefined;
  let listening = false;
  let closed = false;
  let retryTimer: NodeJS.Timeout | undefined;
  let retryDelayMs = 500;

  const onNotification = (message: pg.Notification) => {
    if (message.channel === SESSION_CHANGED_CHANNEL && message.payload) {
      cache.delete(message.payload);
      announce({ sessionId: message.payload });
      return;
    }
    if (message.channel !== USER_CHANGED_CHANNEL) return;
    const userId = Number(message.payload);
    if (!Number.isSafeInteger(userId)) {
      cache.clear();
      announce(null);
      return;
    }
    // User changes are rare (a password, a role, a deactivation): a scan of at most maxEntries.
    for (const [sessionId, entry] of cache) if (entry.session?.userId === userId) cache.delete(sessionId);
    announce({ userId });
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
      await client.query(`LISTEN ${USER_CHANGED_CHANNEL}; LISTEN ${SESSION_CHANGED_CHANNEL}`);
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
  const fresh = (id: string, now: number) => {
    const hit = listening ? cache.get(id) : undefined;
    return hit && now - hit.atMs < ttlMs ? hit : undefined;
  };

  return {
    start: connect,

    /** The session `id` (the token's `sid`) with its user, or undefined when there is none. */
    async get(id: string): Promise<SessionAuth | undefined> {
      const now = clock.nowMs();
      const hit = fresh(id, now);
      if (hit) return hit.session;
      const session = await sessions.findAuth(id);
      if (listening) {
        if (cache.size >= maxEntries) cache.delete(cache.keys().next().value!);
        cache.set(id, { session, atMs: now });
      }
      return session;
    },

    /**
     * What `get` would answer from memory, without waiting: the user (or undefined for none) when
     * the cache holds `id` and may be trusted, else MISS (then call `get`). The authenticated
     * request's hot path: no promise when the answer is known.
     */
    peek(id: string): SessionAuth | undefined | typeof MISS {
      const hit = fresh(id, clock.nowMs());
      return hit ? hit.session : MISS;
    },

    /**
     * Calls `listener` with each user or session changed by any process (the notifications), or with
     * null when changes may have gone unseen (the listening connection was lost and is back): each
     * holder of something a session may lose (an open live stream) checks it again with `get`.
     * Answers the unsubscribe.
     */
    onChange(listener: (change: SessionChange) => void): () => void {
      changeListeners.add(listener);
      return () => changeListeners.delete(listener);
    },

    /**
     * Notes that a request used session `id`: its last_seen_at is written at most once a minute per
     * process, after the answer's work (a failed write is logged, never the request's problem).
     */
    seen(id: string): void {
      const now = clock.nowMs();
      const last = touchedAtMs.get(id);
      if (last !== undefined && now - last < TOUCH_EVERY_MS) return;
      if (touchedAtMs.size >= maxEntries) touchedAtMs.delete(touchedAtMs.keys().next().value!);
      touchedAtMs.set(id, now);
      sessions.touch(id, new Date(now)).catch((error: unknown) => log.warn({ err: error }, "could not record a session's last use"));
    },

    /** Drops what this process just changed, a user's sessions or one session (the notification will follow). */
    invalidate(change: { userId: number } | { sessionId: string }): void {
      if ('sessionId' in change) cache.delete(change.sessionId);
      else for (const [sessionId, entry] of cache) if (entry.session?.userId === change.userId) cache.delete(sessionId);
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
        await client.query(`UNLISTEN ${USER_CHANGED_CHANNEL}; UNLISTEN ${SESSION_CHANGED_CHANNEL}`).catch(() => undefined);
        client.release();
      }
    },

    /** For tests and health: whether the cache is in use. */
    isListening: () => listening,
  };
}

export type SessionUsers = ReturnType<typeof createSessionUsers>;
