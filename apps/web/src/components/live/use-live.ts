import { useContext, useEffect, useEffectEvent, useRef, useState } from 'react';
import type { LiveEvent, LiveQuote, LiveStatus } from '../../lib/live';
import { LiveContext, type LiveEngine } from './live-context';

export function useLiveStatus(): LiveStatus {
  return useContext(LiveContext).status;
}

/** A query's refetchInterval: `intervalMs` only while the stream is not up (the fallback to polling). */
export function usePollingWhileDown(intervalMs: number): number | false {
  return useLiveStatus() === 'live' ? false : intervalMs;
}

/**
 * Registers a screen's engine with the live stream (LiveProvider): from then on its idea updates make
 * its `liveQueryKeys` stale. Every trade screen calls it with its screen configuration (EngineView).
 */
export function useLiveEngine(engine: LiveEngine): void {
  const { addEngine } = useContext(LiveContext);
  useEffect(() => addEngine(engine), [addEngine, engine]);
}

/** Calls `listener` for each live event (the latest listener; no re-subscribe per render). */
export function useLiveEvents(listener: (event: LiveEvent) => void): void {
  const { subscribe } = useContext(LiveContext);
  const onEvent = useEffectEvent(listener);
  useEffect(() => subscribe((event) => onEvent(event)), [subscribe]);
}

/**
 * The latest live quote of each of `symbols` (upper-cased keys) since the screen opened, and whether
 * the stream is up. The symbols join the stream's set while the screen shows them.
 *
 * The server sends each symbol's quote as its own line, a few milliseconds apart: the quotes that
 * arrive before the next frame are drawn together, in one render at that frame (issue 24: each line
 * redrew the whole market overview, some twenty renders every five seconds on the dashboard).
 */
export function useLiveQuotes(symbols: readonly string[]): { quotes: ReadonlyMap<string, LiveQuote>; live: boolean } {
  const { addSymbols, status } = useContext(LiveContext);
  const key = [...new Set(symbols.map((symbol) => symbol.toUpperCase()))].sort().join(',');
  const [quotes, setQuotes] = useState<ReadonlyMap<string, LiveQuote>>(() => new Map());
  const pending = useRef(new Map<string, LiveQuote>());
  const frame = useRef<number | null>(null);
  useEffect(() => (key === '' ? undefined : addSymbols(key.split(','))), [addSymbols, key]);
  useEffect(
    () => () => {
      if (frame.current !== null) cancelAnimationFrame(frame.current);
      frame.current = null;
    },
    [],
  );
  useLiveEvents((event) => {
    if (event.type !== 'quote' || !key.split(',').includes(event.symbol)) return;
    pending.current.set(event.symbol, event);
    frame.current ??= requestAnimationFrame(() => {
      frame.current = null;
      const arrived = pending.current;
      pending.current = new Map();
      setQuotes((current) => new Map([...current, ...arrived]));
    });
  });
  return { quotes, live: status === 'live' };
}
