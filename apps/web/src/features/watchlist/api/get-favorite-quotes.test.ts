import type { FavoriteQuotesResponse } from '@signalboard/core';
import { describe, expect, it } from 'vitest';
import type { LiveQuote } from '../../../lib/live';
import { withLiveQuotes } from './get-favorite-quotes';

const polled: FavoriteQuotesResponse = {
  quotes: [
    { symbol: 'AAPL', current_price: 175, change: 2.5, percent_change: 1.45, timestamp: 1_000, stale: true },
    { symbol: 'RY.TO', current_price: 170, change: 1.7, percent_change: 1.01, timestamp: 1_000, stale: false },
  ],
  failed: [],
};
const tick = (symbol: string, price: number, timestamp: number): LiveQuote => ({ type: 'quote', symbol, price, previousClose: 170, change: price - 170, percentChange: 1, timestamp });

describe('withLiveQuotes', () => {
  it('lays a newer live quote over its row (fresh), and leaves the others and older ticks alone', () => {
    const live = new Map([
      ['AAPL', tick('AAPL', 180, 1_005)],
      ['RY.TO', tick('RY.TO', 160, 999)],
    ]);
    const merged = withLiveQuotes(polled, live)!;
    expect(merged.quotes[0]).toEqual({ symbol: 'AAPL', current_price: 180, change: 10, percent_change: 1, timestamp: 1_005, stale: false });
    expect(merged.quotes[1]).toBe(polled.quotes[1]);
    expect(withLiveQuotes(polled, new Map())).toBe(polled);
    expect(withLiveQuotes(undefined, live)).toBeUndefined();
  });
});
