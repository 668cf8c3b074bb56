import { describe, expect, it } from 'vitest';
import { evaluatePriceWatch } from './evaluate';
import { createWatchIndex, evaluateTick, watchKey } from './tick';
import type { AlertQuote, EvaluationContext, PriceWatch, WatchState } from './types';

const T0 = Date.UTC(2026, 10, 24, 19, 5);
const context = (over: Partial<EvaluationContext> = {}) => (): EvaluationContext => ({ nowMs: T0, refreshMs: 15_000, marketOpen: true, session: '2026-11-24', ...over });
const quote = (symbol: string, price: number, over: Partial<AlertQuote> = {}): AlertQuote => ({ symbol, price, previousClose: 100, asOfMs: T0, source: 'Simulated market', ...over });
const state = (over: Partial<WatchState> = {}): WatchState => ({ ruleStamp: 1, armed: true, triggerPrice: null, lastFiredAtMs: null, lastFiredSession: null, lastPrice: null, ...over });

const watches: PriceWatch[] = [
  { userId: 1, alertType: 'PERCENT_DROP', symbol: 'AAPL', threshold: 5, ruleStamp: 1 },
  { userId: 2, alertType: 'PERCENT_DROP', symbol: 'AAPL', threshold: 10, ruleStamp: 1 },
  { userId: 1, alertType: 'CURRENT_PRICE', symbol: 'AAPL', target: { price: 120, direction: 'above' }, ruleStamp: 1 },
  { userId: 1, alertType: 'CURRENT_PRICE', symbol: 'MSFT', target: { price: 120, direction: 'above' }, ruleStamp: 1 },
  { userId: 3, alertType: 'BITCOIN', symbol: 'BTC', target: { price: 90_000, direction: 'below' }, ruleStamp: 1 },
];
const allArmed = () => new Map(watches.map((w) => [watchKey(w.userId, w.alertType, w.symbol), state()]));

describe('watch index', () => {
  it('finds the watches of a symbol, in order, and none of an unwatched one', () => {
    const index = createWatchIndex(watches);
    expect(index.watchesOf('AAPL').map((w) => `${w.userId}:${w.alertType}`)).toEqual(['1:PERCENT_DROP', '2:PERCENT_DROP', '1:CURRENT_PRICE']);
    expect(index.watchesOf('TSLA')).toEqual([]);
    expect([...index.symbols()].sort()).toEqual(['AAPL', 'BTC', 'MSFT']);
    expect(index.size).toBe(5);
  });

  it('keys a state by user, type and symbol', () => {
    expect(watchKey(1, 'PERCENT_DROP', 'AAPL')).toBe('1|PERCENT_DROP|AAPL');
    expect(watchKey(1, 'PERCENT_DROP', 'AAPL')).not.toBe(watchKey(1, 'LEVEL_SYSTEM', 'AAPL'));
    expect(watchKey(1, 'PERCENT_DROP', 'AAPL')).not.toBe(watchKey(11, 'PERCENT_DROP', 'AAPL'));
  });
});

describe('evaluateTick', () => {
  it('answers only the watches that fired or changed, each as evaluatePriceWatch answers it', () => {
    const index = createWatchIndex(watches);
    const states = allArmed();
    // AAPL −6%: fires the 5% drop, not the 10% one, not the 120 target; MSFT 121 crosses its target; BTC quiet.
    const quotes = [quote('AAPL', 94), quote('MSFT', 121), quote('BTC', 95_000, { previousClose: 94_000 })];
    const results = evaluateTick(index, states, quotes, context());
    expect(results.map((r) => r.key)).toEqual(['1|PERCENT_DROP|AAPL', '1|CURRENT_PRICE|MSFT']);
    for (const { watch, key, result } of results) {
      expect(result).toEqual(evaluatePriceWatch(watch, states.get(key)!, quotes.find((q) => q.symbol === watch.symbol)!, context()()));
      expect(result.fired).not.toBeNull();
    }
    // The input map is not modified.
    expect(states.get('1|PERCENT_DROP|AAPL')!.armed).toBe(true);
  });

  it('starts watches that have no state yet', () => {
    const index = createWatchIndex(watches);
    const results = evaluateTick(index, new Map(), [quote('AAPL', 94)], context());
    expect(results).toHaveLength(3);
    expect(results.every((r) => r.result.changed && r.result.fired === null)).toBe(true);
    expect(results.map((r) => r.result.state.armed)).toEqual([false, true, true]);
  });

  it('evaluates nothing on a closed market or a stale quote, but still starts new watches', () => {
    const index = createWatchIndex(watches);
    const states = allArmed();
    expect(evaluateTick(index, states, [quote('AAPL', 50)], context({ marketOpen: false }))).toEqual([]);
    expect(evaluateTick(index, states, [quote('AAPL', 50, { asOfMs: T0 - 60_000 })], context())).toEqual([]);
    states.delete('2|PERCENT_DROP|AAPL');
    const started = evaluateTick(index, states, [quote('AAPL', 50)], context({ marketOpen: false }));
    expect(started.map((r) => r.key)).toEqual(['2|PERCENT_DROP|AAPL']);
  });

  it('evaluates nothing on an unusable quote, and restarts a watch whose rule was saved again', () => {
    const index = createWatchIndex(watches);
    const states = allArmed();
    expect(evaluateTick(index, states, [quote('AAPL', Number.NaN)], context())).toEqual([]);
    states.set('2|PERCENT_DROP|AAPL', state({ ruleStamp: 0, armed: false, lastFiredSession: '2026-11-24' }));
    const restarted = evaluateTick(index, states, [quote('AAPL', 99)], context());
    expect(restarted.map((r) => [r.key, r.result.state.ruleStamp, r.result.state.armed, r.result.state.lastFiredSession])).toEqual([['2|PERCENT_DROP|AAPL', 1, true, null]]);
  });

  it('applies a quote of a known market only to the watches of that market', () => {
    const mixed: PriceWatch[] = [
      { userId: 1, alertType: 'BITCOIN', symbol: 'ETH', target: { price: 3000, direction: 'above' }, ruleStamp: 1 },
      { userId: 1, alertType: 'CURRENT_PRICE', symbol: 'ETH', target: { price: 30, direction: 'above' }, ruleStamp: 1 },
    ];
    const index = createWatchIndex(mixed);
    const states = new Map(mixed.map((w) => [watchKey(w.userId, w.alertType, w.symbol), state()]));
    const crypto = evaluateTick(index, states, [quote('ETH', 3100, { market: 'crypto' })], context());
    expect(crypto.map((r) => r.watch.alertType)).toEqual(['BITCOIN']);
    const stock = evaluateTick(index, states, [quote('ETH', 31, { market: 'stock' })], context());
    expect(stock.map((r) => r.watch.alertType)).toEqual(['CURRENT_PRICE']);
    // Without a market every watch of the symbol is evaluated.
    expect(evaluateTick(index, states, [quote('ETH', 3100)], context())).toHaveLength(2);
  });

  it('calls contextOf once per watched quote', () => {
    const index = createWatchIndex(watches);
    let calls = 0;
    evaluateTick(index, allArmed(), [quote('AAPL', 99), quote('TSLA', 99), quote('MSFT', 99)], () => {
      calls += 1;
      return context()();
    });
    expect(calls).toBe(2);
  });
});
