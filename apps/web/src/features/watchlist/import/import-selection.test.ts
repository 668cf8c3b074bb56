import type { WatchlistImportEntryResult } from '@signalboard/core';
import { describe, expect, it } from 'vitest';
import { entryPlace } from './import-selection';

const found = (line: number, raw: string, symbol: string, duplicateOfLine?: number): WatchlistImportEntryResult => ({
  line,
  raw,
  status: 'found',
  symbol,
  description: `${symbol} Inc.`,
  exchange: 'NASDAQ',
  inFavorites: false,
  ...(duplicateOfLine === undefined ? {} : { duplicateOfLine }),
});
const T_PAIR = [
  { symbol: 'T', description: 'AT&T Inc.', exchange: 'NYSE', inFavorites: false },
  { symbol: 'T.TO', description: 'TELUS Corporation', exchange: 'TSX', inFavorites: false },
];

describe('entryPlace: where an entry is, unique among the preview’s controls', () => {
  it('is its line; a listing repeated on one line (a one-line TradingView list) is told apart by its turn there', () => {
    const entries: WatchlistImportEntryResult[] = [
      found(1, 'NASDAQ:NVDA', 'NVDA'),
      found(1, 'AAPL', 'AAPL'),
      found(1, 'NVDA', 'NVDA', 1),
      { line: 1, raw: 'T', status: 'ambiguous', candidates: T_PAIR },
      { line: 1, raw: 'T', status: 'ambiguous', candidates: T_PAIR, duplicateOfLine: 1 },
      found(2, 'NVDA', 'NVDA', 1),
      { line: 2, raw: 'ZZZZ', status: 'unknown', reason: 'not listed' },
    ];
    expect(entries.map((_, index) => entryPlace(entries, index))).toEqual(['line 1, 1st time', 'line 1', 'line 1, 2nd time', 'line 1, 1st time', 'line 1, 2nd time', 'line 2', 'line 2']);
  });

  it('counts past the third with the right suffix', () => {
    const entries = Array.from({ length: 13 }, () => found(1, 'A', 'A'));
    expect([0, 1, 2, 3, 10, 11, 12].map((index) => entryPlace(entries, index).replace('line 1, ', ''))).toEqual(['1st time', '2nd time', '3rd time', '4th time', '11th time', '12th time', '13th time']);
  });
});
