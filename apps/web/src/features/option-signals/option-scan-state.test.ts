import type { OptionFlagBody, OptionScanEvent } from '@signalboard/core';
import { describe, expect, it } from 'vitest';
import { INITIAL_OPTION_SCAN, optionScanReducer, setFlag, skippedSummary, type OptionScanState } from './option-scan-state';

const flag = (symbol: string, tag: OptionFlagBody['tag'], percentageChange: number, overrides: Partial<OptionFlagBody> = {}): OptionFlagBody => ({
  symbol,
  currentPrice: 100,
  high: 120,
  low: 90,
  percentageChange,
  calculationType: tag.endsWith('High') ? 'drop' : 'increase',
  tag,
  action: tag.endsWith('High') ? 'CALL' : 'PUT',
  timeFrame: tag.startsWith('1') ? 'short term' : 'long term',
  supportTag: 'Near Support',
  ...overrides,
});

const play = (events: OptionScanEvent[], from: OptionScanState = INITIAL_OPTION_SCAN) =>
  events.reduce((state, event) => optionScanReducer(state, { type: 'event', event }), optionScanReducer(from, { type: 'begin' }));

describe('Options Scanner state', () => {
  it('keeps rows sorted by percentage change, largest first, as they stream in', () => {
    const state = play([
      { type: 'start', total: 3 },
      { type: 'flag', flag: flag('GOOGL', '1MonthHigh', 13.76) },
      { type: 'progress', done: 1, total: 3, symbol: 'GOOGL' },
      { type: 'flag', flag: flag('META', '6MonthLow', 19.35) },
      { type: 'flag', flag: flag('META', '1MonthLow', 10.5) },
      { type: 'progress', done: 2, total: 3, symbol: 'META' },
    ]);
    expect(state.flags.map((f) => `${f.symbol} ${f.tag} ${f.percentageChange}`)).toEqual(['META 6MonthLow 19.35', 'GOOGL 1MonthHigh 13.76', 'META 1MonthLow 10.5']);
    expect(state).toMatchObject({ status: 'running', total: 3, done: 2 });
  });

  it('sets a flag once per symbol and tag: a repeat replaces it in place', () => {
    const once = setFlag([flag('GOOGL', '1MonthHigh', 12)], flag('GOOGL', '6MonthHigh', 16));
    const again = setFlag(once, flag('GOOGL', '1MonthHigh', 14, { currentPrice: 99 }));
    expect(again.map((f) => [f.tag, f.percentageChange, f.currentPrice])).toEqual([
      ['6MonthHigh', 16, 100],
      ['1MonthHigh', 14, 99],
    ]);
  });

  it('keeps the arrival order of equal changes', () => {
    const flags = [flag('A', '1MonthHigh', 10), flag('B', '1MonthHigh', 10), flag('C', '1MonthHigh', 11)].reduce(setFlag, [] as OptionFlagBody[]);
    expect(flags.map((f) => f.symbol)).toEqual(['C', 'A', 'B']);
  });

  it('counts skipped symbols once, from skip events and the end summary', () => {
    const state = play([
      { type: 'start', total: 2 },
      { type: 'skip', symbol: 'ORCL', msg: 'No price history for ORCL' },
      { type: 'progress', done: 1, total: 2, symbol: 'ORCL' },
      { type: 'progress', done: 2, total: 2, symbol: 'TSLA' },
      { type: 'end', scanned: 1, failed: [{ symbol: 'ORCL', msg: 'No price history for ORCL' }], as_of: 1_795_000_000 },
    ]);
    expect(state).toMatchObject({ status: 'done', done: 2, total: 2, flags: [], asOf: 1_795_000_000 });
    expect(state.skipped).toEqual([{ symbol: 'ORCL', msg: 'No price history for ORCL' }]);
    expect(skippedSummary(1)).toBe('1 symbol could not be scanned');
    expect(skippedSummary(2)).toBe('2 symbols could not be scanned');
  });

  it('starts every scan from an empty list', () => {
    const first = play([{ type: 'start', total: 1 }, { type: 'flag', flag: flag('GOOGL', '1MonthHigh', 13) }, { type: 'end', scanned: 1, failed: [], as_of: 1 }]);
    const second = optionScanReducer(first, { type: 'begin' });
    expect(second).toEqual({ ...INITIAL_OPTION_SCAN, status: 'running' });
  });

  it('keeps what arrived when the scan is stopped or fails', () => {
    const running = play([{ type: 'start', total: 4 }, { type: 'flag', flag: flag('GOOGL', '1MonthHigh', 13) }]);
    expect(optionScanReducer(running, { type: 'stopped' })).toMatchObject({ status: 'stopped', flags: [expect.objectContaining({ symbol: 'GOOGL' })] });
    expect(optionScanReducer(running, { type: 'failed', message: 'boom' })).toMatchObject({ status: 'failed', error: 'boom', flags: [expect.objectContaining({ symbol: 'GOOGL' })] });
    // A stop after the end changes nothing.
    const ended = play([{ type: 'start', total: 0 }, { type: 'end', scanned: 0, failed: [], as_of: 1 }]);
    expect(optionScanReducer(ended, { type: 'stopped' })).toBe(ended);
  });
});
