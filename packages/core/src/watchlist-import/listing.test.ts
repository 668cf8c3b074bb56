import { describe, expect, it } from 'vitest';
import { parseCsv } from '../csv/csv-reader';
import { CSV_BOM } from '../csv/csv-writer';
import { listingPlan, tradingViewSymbol, watchlistCsv, watchlistTradingViewText } from './listing';
import { parseWatchlistText } from './parse';

describe('listingPlan', () => {
  it('maps .TO and TSX: to the Toronto listing, US exchanges to the US one, a bare symbol to both', () => {
    expect(listingPlan({ symbol: 'RY.TO', exchange: null })).toEqual({ kind: 'lookup', us: null, canadian: 'RY.TO' });
    expect(listingPlan({ symbol: 'RY', exchange: 'TSX' })).toEqual({ kind: 'lookup', us: null, canadian: 'RY.TO' });
    expect(listingPlan({ symbol: 'RY.TO', exchange: 'TSX' })).toEqual({ kind: 'lookup', us: null, canadian: 'RY.TO' });
    expect(listingPlan({ symbol: 'SPY', exchange: 'AMEX' })).toEqual({ kind: 'lookup', us: 'SPY', canadian: null });
    expect(listingPlan({ symbol: 'SPY', exchange: 'NYSE ARCA' })).toEqual({ kind: 'lookup', us: 'SPY', canadian: null });
    expect(listingPlan({ symbol: 'T', exchange: null })).toEqual({ kind: 'lookup', us: 'T', canadian: 'T.TO' });
  });

  it('refuses other markets and contradictions, with the reason', () => {
    expect(listingPlan({ symbol: 'BTCUSDT', exchange: 'BINANCE' })).toEqual({ kind: 'refused', reason: 'BINANCE is not a US or Canadian (TSX) exchange; favorites are US and Canadian stocks only.' });
    expect(listingPlan({ symbol: 'RY.TO', exchange: 'NYSE' })).toEqual({ kind: 'refused', reason: 'NYSE is a US exchange but RY.TO is a Toronto (.TO) symbol.' });
  });
});

describe('watchlist export', () => {
  const favorites = [
    { symbol: 'AAPL', description: 'Apple Inc.', exchange: 'NASDAQ' },
    { symbol: 'RY.TO', description: 'Royal Bank of Canada', exchange: 'TSX' },
    { symbol: 'SPY', description: 'SPDR S&P 500 ETF Trust', exchange: 'NYSE Arca' },
    { symbol: 'T', description: 'AT&T, "Ma Bell"', exchange: 'NYSE' },
    { symbol: 'ZZZ', description: '=cmd', exchange: '' },
  ];

  it('writes TradingView pairs: TSX without .TO, NYSE Arca as AMEX, a bare symbol when the exchange is unknown', () => {
    expect(tradingViewSymbol({ symbol: 'RY.TO', exchange: 'TSX' })).toBe('TSX:RY');
    expect(watchlistTradingViewText(favorites)).toBe('NASDAQ:AAPL,TSX:RY,AMEX:SPY,NYSE:T,ZZZ');
  });

  it('round-trips: the TradingView text and the CSV import back to the same listings', () => {
    const tv = parseWatchlistText(watchlistTradingViewText(favorites));
    expect(tv.problems).toEqual([]);
    expect(tv.entries.map((entry) => listingPlan(entry))).toEqual([
      { kind: 'lookup', us: 'AAPL', canadian: null },
      { kind: 'lookup', us: null, canadian: 'RY.TO' },
      { kind: 'lookup', us: 'SPY', canadian: null },
      { kind: 'lookup', us: 'T', canadian: null },
      { kind: 'lookup', us: 'ZZZ', canadian: 'ZZZ.TO' },
    ]);
    const csv = watchlistCsv(favorites);
    expect(csv.startsWith(CSV_BOM)).toBe(true);
    expect(parseCsv(csv).map((record) => record.fields)).toEqual([
      ['symbol', 'description', 'exchange'],
      ['AAPL', 'Apple Inc.', 'NASDAQ'],
      ['RY.TO', 'Royal Bank of Canada', 'TSX'],
      ['SPY', 'SPDR S&P 500 ETF Trust', 'NYSE Arca'],
      ['T', 'AT&T, "Ma Bell"', 'NYSE'],
      ['ZZZ', "'=cmd", ''],
    ]);
    expect(parseWatchlistText(csv).entries.map((entry) => `${entry.exchange ?? ''}:${entry.symbol}`)).toEqual(['NASDAQ:AAPL', 'TSX:RY.TO', 'NYSE ARCA:SPY', 'NYSE:T', ':ZZZ']);
  });
});
