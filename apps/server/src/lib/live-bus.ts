/**
 * The live-update bus: quotes, idea updates and fired alerts, fanned out to every API process that
 * holds a browser's stream. In one process (no REDIS_URL) an in-process emitter; with REDIS_URL,
 * Redis pub/sub (one channel per installation, `${REDIS_PREFIX}:live`), so an event published by a
 * worker reaches a stream held by any API replica. Delivery is best effort (pub/sub keeps nothing):
 * the browser re-reads on reconnect and falls back to polling, and nothing a user must not miss
 * (alert deliveries) travels only here.
 *
 * Implementations: features/live/ (createInProcessBus, createRedisBus).
 */
import type { EngineId } from '@signalboard/core';

export type LiveEvent =
  /** A quote read by the alert quote poller or a quote call; price and change as the quote call answers them. */
  | { type: 'quote'; symbol: string; price: number; previousClose: number; change: number; percentChange: number; timestamp: number }
  /** An engine pass or mark changed its ideas (the trade screens re-read the engine's list). */
  | { type: 'ideas'; engine: EngineId; at: number }
  /** An alert fired for one user (the Alert History tab and a notification). */
  | { type: 'alert'; userId: number; alertType: string; symbol: string | null; message: string; at: number }
  /**
   * A stream's symbol set changed (sent by the API that took the call to the API holding the stream,
   * which applies it only when the stream is this user's).
   */
  | { type: 'symbols'; connectionId: string; userId: number; symbols: string[] };

export interface LiveBus {
  readonly kind: 'in-process' | 'redis';
  /** Sends to every subscriber of every process (Redis) or of this process; never throws (logs). */
  publish(event: LiveEvent): Promise<void>;
  /** Listens to every event; answers the unsubscribe. */
  subscribe(listener: (event: LiveEvent) => void): () => void;
  close(): Promise<void>;
}
