/**
 * The streams this process holds: one per signed-in browser tab, each with its user and symbol set.
 * Events from the bus go to the streams they concern: a quote to the streams showing its symbol,
 * idea updates to every stream, an alert to its user's streams, a symbol set to the stream it names
 * (when it is that user's).
 */
import { randomUUID } from 'node:crypto';
import { PassThrough } from 'node:stream';
import type { LiveStreamEvent } from '@signalboard/core';
import type { Clock } from '../../lib/clock';
import { HttpError } from '../../lib/errors';
import type { LiveBus, LiveEvent } from '../../lib/live-bus';
import { metrics } from '../../lib/metrics';
import type { SessionUsers } from '../auth/session-users';
import type { LiveRegistry } from './live-registry';

export const LIVE_HEARTBEAT_MS = 15_000;
/** Open streams per user in the whole installation (a few tabs, on any API replica); the next one answers 429. */
export const LIVE_STREAMS_PER_USER = 5;
/** A stream whose reader has fallen this far behind is closed (its browser reconnects and re-reads). */
const MAX_BUFFERED_BYTES = 1024 * 1024;

export const STREAM_ACCOUNT_DEACTIVATED_MSG = 'This session has ended, or its account has been deactivated. Please sign in again.';
/** The longest timer Node keeps (about 24.8 days); a later session end is not timed. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export const tooManyStreamsMsg = (max: number) =>
  `Too many live-update streams are open for this account (at most ${max}). Close another tab or wait a moment.`;

interface Stream {
  id: string;
  userId: number;
  /** The sign-in session whose token opened it: the stream ends with the session. */
  sessionId: string;
  symbols: Set<string>;
  body: PassThrough;
  /** Ends the stream when its session does (the access token's expiry). */
  sessionTimer?: NodeJS.Timeout;
}

export interface LiveHubDeps {
  bus: LiveBus;
  registry: LiveRegistry;
  clock: Clock;
  log: { warn(message: string): void };
  heartbeatMs?: number;
  maxPerUser?: number;
  /**
   * The sessions behind the streams: a stream ends once its session is ended or its user
   * deactivated or removed, by any process (session-users learns of every change through PostgreSQL).
   */
  users?: Pick<SessionUsers, 'get' | 'onChange'>;
}

export function createLiveHub(deps: LiveHubDeps) {
  const { bus, registry, clock, log } = deps;
  const heartbeatMs = deps.heartbeatMs ?? LIVE_HEARTBEAT_MS;
  const maxPerUser = deps.maxPerUser ?? LIVE_STREAMS_PER_USER;
  const streams = new Map<string, Stream>();
  const ignore = (what: string) => (error: unknown) => log.warn(`Live updates: ${what} failed: ${(error as Error).message}`);

  const write = (stream: Stream, line: LiveStreamEvent) => {
    if (stream.body.destroyed || stream.body.writableEnded) return;
    if (stream.body.writableLength > MAX_BUFFERED_BYTES) {
      stream.body.end();
      return;
    }
    stream.body.write(`${JSON.stringify(line)}\n`);
  };

  const deliver = (event: LiveEvent) => {
    switch (event.type) {
      case 'quote':
        for (const stream of streams.values()) if (stream.symbols.has(event.symbol)) write(stream, event);
        return;
      case 'ideas':
        for (const stream of streams.values()) write(stream, event);
        return;
      case 'alert': {
        const { userId, ...line } = event;
        for (const stream of streams.values()) if (stream.userId === userId) write(stream, { ...line, type: 'alert' });
        return;
      }
      case 'symbols': {
        const stream = streams.get(event.connectionId);
        if (!stream || stream.userId !== event.userId) return;
        stream.symbols = new Set(event.symbols);
        return;
      }
    }
  };
  const unsubscribe = bus.subscribe(deliver);

  /** Whether a session may still read its streams: not ended, its user active. */
  const usable = async (sessionId: string) => {
    const session = await deps.users!.get(sessionId);
    return session !== undefined && !session.ended && session.isActive;
  };
  /** Ends the streams of each session among `sessionIds` that may no longer read them. */
  const recheck = (sessionIds: Iterable<string>) => {
    for (const sessionId of new Set(sessionIds)) {
      void usable(sessionId)
        .then((ok) => {
          if (ok) return;
          for (const stream of streams.values()) if (stream.sessionId === sessionId) stream.body.end();
        })
        .catch(ignore("checking a stream's session"));
    }
  };
  const unwatchUsers = deps.users?.onChange((change) => {
    const all = [...streams.values()];
    if (change === null) recheck(all.map((stream) => stream.sessionId));
    else if ('sessionId' in change) recheck(all.filter((stream) => stream.sessionId === change.sessionId).map((stream) => stream.sessionId));
    else recheck(all.filter((stream) => stream.userId === change.userId).map((stream) => stream.sessionId));
  });

  const heartbeat = setInterval(() => {
    const at = clock.nowMs();
    for (const stream of streams.values()) {
      write(stream, { type: 'heartbeat', at });
      void registry.claimConnection(stream.id, stream.userId).catch(ignore('refreshing a stream'));
      if (stream.symbols.size > 0) void registry.touchSymbols([...stream.symbols]).catch(ignore('refreshing symbols'));
    }
  }, heartbeatMs);
  heartbeat.unref();

  return {
    /**
     * Opens a stream for the user (429 past the cap, installation-wide); the body starts with the
     * hello line. It ends by itself at `sessionEndsAtMs` (wall-clock ms, the token's expiry).
     */
    async open(userId: number, sessionId: string, sessionEndsAtMs?: number): Promise<{ id: string; body: PassThrough }> {
      const id = randomUUID();
      // The registry counts the user's streams on every replica (with Redis) and records this one.
      if (!(await registry.openConnection(id, userId, maxPerUser))) throw new HttpError(429, tooManyStreamsMsg(maxPerUser));
      const stream: Stream = { id, userId, sessionId, symbols: new Set(), body: new PassThrough() };
      streams.set(stream.id, stream);
      metrics.liveConnections.set(streams.size);
      stream.body.once('close', () => {
        clearTimeout(stream.sessionTimer);
        streams.delete(stream.id);
        metrics.liveConnections.set(streams.size);
        void registry.dropConnection(stream.id, stream.userId).catch(ignore('dropping a stream'));
      });
      // A deactivation or ended session announced between the request's sign-in check and this
      // stream's arrival in `streams` found no stream to end: it is checked once more now.
      if (deps.users && !(await usable(sessionId).catch(() => true))) {
        stream.body.destroy();
        throw new HttpError(401, STREAM_ACCOUNT_DEACTIVATED_MSG);
      }
      if (sessionEndsAtMs !== undefined) {
        const leftMs = sessionEndsAtMs - Date.now();
        if (leftMs <= MAX_TIMER_MS) {
          stream.sessionTimer = setTimeout(() => stream.body.end(), Math.max(0, leftMs));
          stream.sessionTimer.unref();
        }
      }
      write(stream, { type: 'hello', connection_id: stream.id, heartbeat_ms: heartbeatMs });
      return { id: stream.id, body: stream.body };
    },
    /** Ends the stream (its browser went away). */
    end(id: string): void {
      const stream = streams.get(id);
      if (stream) stream.body.destroy();
    },
    /** Sets the symbols of a stream held by any process: checks the owner, then tells the holder. */
    async setSymbols(userId: number, connectionId: string, symbols: readonly string[]): Promise<void> {
      const owner = streams.get(connectionId)?.userId ?? (await registry.ownerOf(connectionId));
      if (owner === null) throw new HttpError(404, 'No open live-update stream has this connection_id; open the stream again and use the id of its hello line.');
      if (owner !== userId) throw new HttpError(403, 'This live-update stream belongs to another account.');
      const unique = [...new Set(symbols)];
      await registry.touchSymbols(unique);
      await bus.publish({ type: 'symbols', connectionId, userId, symbols: unique });
    },
    openCount: () => streams.size,
    /** Ends every stream (the app is closing). */
    async close(): Promise<void> {
      clearInterval(heartbeat);
      unsubscribe();
      unwatchUsers?.();
      for (const stream of streams.values()) stream.body.end();
      streams.clear();
      metrics.liveConnections.set(0);
    },
  };
}

export type LiveHub = ReturnType<typeof createLiveHub>;
