import { useContext, useEffect, useEffectEvent, useState } from 'react';
import type { LiveEvent, LiveQuote, LiveStatus } from '../../api/live';
import { LiveContext } from './live-context';

export function useLiveStatus(): LiveStatus {
  return useContext(LiveContext).status;
}

/** A query's refetchInterval: `intervalMs` only while the stream is not up (the fallback to polling). */
export function usePollingWhileDown(intervalMs: number): number | false {
  return useLiveStatus() === 'live' ? false : intervalMs;
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
 */
export function useLiveQuotes(symbols: readonly string[]): { quotes: ReadonlyMap<string, LiveQuote>; live: boolean } {
  const { addSymbols, status } = useContext(LiveContext);
  const key = [...new Set(symbols.map((symbol) => symbol.toUpperCase()))].sort().join(',');
  const [quotes, setQuotes] = useState<ReadonlyMap<string, LiveQuote>>(() => new Map());
  useEffect(() => (key === '' ? undefined : addSymbols(key.split(','))), [addSymbols, key]);
  useLiveEvents((event) => {
    if (event.type !== 'quote' || !key.split(',').includes(event.symbol)) return;
    setQuotes((current) => new Map(current).set(event.symbol, event));
  });
  return { quotes, live: status === 'live' };
}
