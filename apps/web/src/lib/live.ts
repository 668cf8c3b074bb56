import { liveEndpoints, liveStreamEvent, type LiveStreamEvent } from '@signalboard/core';
import { ApiError, apiCallResponse } from './client';
import { readLines } from './ndjson';

/**
 * Live updates (GET api/live): one NDJSON stream per tab, opened with fetch and the bearer header
 * (never the token in a URL). The stream's symbol set is told with POST api/live_symbols after each
 * hello. A dropped stream is opened again with a jittered backoff (1 s, 2 s, 4 s … at most 30 s);
 * while it is down the screens poll as they did before (`status !== 'live'`).
 */

export type LiveStatus = 'connecting' | 'live' | 'reconnecting' | 'off';
export type LiveEvent = Exclude<LiveStreamEvent, { type: 'hello' } | { type: 'heartbeat' }>;
export type LiveQuote = Extract<LiveStreamEvent, { type: 'quote' }>;

export const LIVE_BACKOFF_MIN_MS = 1_000;
export const LIVE_BACKOFF_MAX_MS = 30_000;
/** No line (not even a heartbeat) for this many heartbeats: the stream is taken for dead and reopened. */
const SILENT_HEARTBEATS = 2.5;

/** The wait before the attempt-th reconnect (0-based): the doubling delay, jittered into its upper half. */
export function backoffDelayMs(attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(LIVE_BACKOFF_MAX_MS, LIVE_BACKOFF_MIN_MS * 2 ** Math.min(attempt, 10));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

/** A line's value, or null when it is not a line this client knows (a newer server's event is skipped). */
export function parseLiveLine(line: string): LiveStreamEvent | null {
  try {
    const result = liveStreamEvent.safeParse(JSON.parse(line));
    return result.success ? result.data : null;
  } catch {
    return null;
  }
}

export interface LiveClientOptions {
  onStatus(status: LiveStatus): void;
  onEvent(event: LiveEvent): void;
  /** Injected by tests; default Math.random. */
  random?: () => number;
}

export interface LiveClient {
  start(): void;
  stop(): void;
  /** The symbols the screens show now (sent at once when the stream is up, and after each hello). */
  setSymbols(symbols: readonly string[]): void;
}

export function createLiveClient(options: LiveClientOptions): LiveClient {
  let controller: AbortController | undefined;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  let silenceTimer: ReturnType<typeof setTimeout> | undefined;
  let attempt = 0;
  let running = false;
  let connectionId: string | null = null;
  let symbols: string[] = [];
  let sentKey: string | null = null;
  let status: LiveStatus = 'off';

  const setStatus = (next: LiveStatus) => {
    if (next === status) return;
    status = next;
    options.onStatus(next);
  };

  const sendSymbols = () => {
    const id = connectionId;
    const key = symbols.join(',');
    if (!id || key === sentKey) return;
    const fresh = sentKey === null;
    sentKey = key;
    // A new stream shows nothing yet: an empty set needs no call there.
    if (key === '' && fresh) return;
    // The answer's body is read to its end (an unread body keeps the request open in the browser).
    apiCallResponse(liveEndpoints.setLiveSymbols, { body: { connection_id: id, symbols }, signal: controller?.signal })
      .then((response) => response.text())
      .catch(() => {
        // The stream is gone or going: the next hello sends the set again.
        if (sentKey === key) sentKey = null;
      });
  };

  const scheduleReconnect = () => {
    if (!running) return;
    setStatus('reconnecting');
    const delay = backoffDelayMs(attempt, options.random);
    attempt += 1;
    retryTimer = setTimeout(() => void connect(), delay);
  };

  async function connect(): Promise<void> {
    controller = new AbortController();
    const { signal } = controller;
    connectionId = null;
    sentKey = null;
    let silentAfterMs = Number.POSITIVE_INFINITY;
    const armSilence = () => {
      clearTimeout(silenceTimer);
      if (Number.isFinite(silentAfterMs)) silenceTimer = setTimeout(() => controller?.abort(), silentAfterMs);
    };
    try {
      const response = await apiCallResponse(liveEndpoints.openLiveStream, { signal }, 'application/x-ndjson');
      if (!response.body) throw new ApiError('The live-update stream sent no body.', response.status);
      for await (const text of readLines(response.body, signal)) {
        const line = parseLiveLine(text);
        if (!line) continue;
        armSilence();
        if (line.type === 'hello') {
          connectionId = line.connection_id;
          silentAfterMs = line.heartbeat_ms * SILENT_HEARTBEATS;
          armSilence();
          attempt = 0;
          setStatus('live');
          sendSymbols();
        } else if (line.type !== 'heartbeat') {
          options.onEvent(line);
        }
      }
    } catch (error) {
      // A 401 has already sent the app to the login screen (lib/client.ts): nothing to reconnect.
      if (error instanceof ApiError && error.status === 401) {
        running = false;
        setStatus('off');
        return;
      }
    } finally {
      clearTimeout(silenceTimer);
      connectionId = null;
    }
    // The stream ended, failed or fell silent (the watchdog aborted it); stop() clears `running`.
    if (running) scheduleReconnect();
  }

  return {
    start() {
      if (running) return;
      running = true;
      attempt = 0;
      setStatus('connecting');
      void connect();
    },
    stop() {
      running = false;
      clearTimeout(retryTimer);
      clearTimeout(silenceTimer);
      controller?.abort();
      connectionId = null;
      setStatus('off');
    },
    setSymbols(next) {
      symbols = [...new Set(next.map((symbol) => symbol.toUpperCase()))].sort();
      sendSymbols();
    },
  };
}
