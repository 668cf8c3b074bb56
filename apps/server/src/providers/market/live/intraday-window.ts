import { intradayWindowStart, newYorkTime } from '@signalboard/core';
import type { Bars } from '../types';

/**
 * A provider's recent 5-minute stock bars (oldest first, several sessions) cut the way every source
 * serves them: the last New York session, after the one before it while the last has fewer than
 * 15 bars (core's intradayWindowStart), so `dailyrsi` is defined from the open.
 */
export function lastSessionWindow(bars: Bars): Bars {
  const start = intradayWindowStart(Array.from(bars.time, (time) => newYorkTime(time * 1000).day));
  if (start === 0) return bars;
  return {
    symbol: bars.symbol,
    time: bars.time.slice(start),
    open: bars.open.slice(start),
    high: bars.high.slice(start),
    low: bars.low.slice(start),
    close: bars.close.slice(start),
    volume: bars.volume.slice(start),
  };
}
