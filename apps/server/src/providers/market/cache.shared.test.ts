/**
 * The market cache shared through Redis by several processes (each instance here has its own Redis
 * connection, as two API processes would). Runs when REDIS_URL is set:
 * `REDIS_URL=redis://127.0.0.1:6379 npx vitest run --project server src/providers/market/cache.shared.test.ts`
 */
import { afterEach, describe, expect, it } from 'vitest';
import { FakeClock } from '../../../test/helpers';
import { testRedisSettings, testRedisUrl } from '../../../test/redis';
import type { CacheStore } from '../../lib/cache-store';
import { createRedisStore } from '../../lib/cache-store.redis';
import { metrics } from '../../lib/metrics';
import { MarketCache } from './cache';
import { createCachedMarket, MARKET_TTL_MS } from './cached-market';
import { ProviderError, UnknownSymbolError, type Bars, type MarketData, type Quote } from './types';

/** One "process's" source: counts its upstream calls; `fail` makes every call fail. */
function processSource(clock: FakeClock) {
  const state = { quoteCalls: 0, barsCalls: 0, fail: undefined as Error | undefined };
  const unused = async (): Promise<never> => {
    throw new Error('not used by this test');
  };
  const source: MarketData = {
    source: 'file',
    async getQuote(symbol): Promise<Quote> {
      state.quoteCalls += 1;
      await new Promise((resolve) => setTimeout(resolve, 5));
      if (state.fail) throw state.fail;
      return { symbol, price: 101 + state.quoteCalls, change: 1, percentChange: 1, previousClose: 100, open: 100, high: 102, low: 99, volume: 1e6, timestamp: clock.nowMs() / 1000 };
    },
    async getDailyBars(symbol): Promise<Bars> {
      state.barsCalls += 1;
      const days = Float64Array.from({ length: 30 }, (_, index) => clock.nowMs() / 1000 - (30 - index) * 86_400);
      const prices = Float64Array.from(days, (_, index) => (index === 3 ? -0 : index === 4 ? Number.NaN : 100 + index / 3));
      return { symbol, time: days, open: prices, high: prices, low: prices, close: prices, volume: prices, candles: { provider: 'test', range: 'ohlc', volume: 'base' } };
    },
    lookupSymbols: unused,
    searchSymbols: unused,
    getProfile: unused,
    getIntradayBars: unused,
    getCompanyNews: unused,
    getMarketNews: unused,
    getNewsSentiment: unused,
    getEarningsCalendar: unused,
    getOptionChain: unused,
    getEconomicSeries: unused,
  };
  return { source, state };
}

describe.skipIf(!testRedisUrl())('MarketCache shared through Redis', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  /** `count` processes on one installation (one Redis prefix), each with its store connection, cache and source. */
  function processes(count: number, options: { sharedWaitMs?: number } = {}) {
    const settings = testRedisSettings('market');
    const clock = new FakeClock();
    const stores: CacheStore[] = [];
    cleanups.push(async () => {
      for (const store of stores) await store.close();
      await settings.clear();
    });
    const made = Array.from({ length: count }, (_, index) => {
      const store = createRedisStore(settings, { connectionName: `cache-${index}` });
      stores.push(store);
      const { source, state } = processSource(clock);
      const market = createCachedMarket(source, clock, new MarketCache(clock, { store, ...options }));
      return { market, state, store };
    });
    return { clock, settings, made };
  }

  it('makes 1 upstream call for 1,000 concurrent identical quotes spread over two processes', async () => {
    const { made } = processes(2);
    // The market cache's count: the analysis cache counts 'shared' too, and (the server suite shares
    // modules between files) its row may come first when another file ran in this worker.
    const marketShared = async () => (await metrics.cacheLookups.get()).values.find((value) => value.labels.cache === 'market' && value.labels.result === 'shared')?.value ?? 0;
    const shared = await marketShared();
    const answers = await Promise.all(Array.from({ length: 1000 }, (_, index) => made[index % 2]!.market.getQuote('aapl')));
    expect(made[0]!.state.quoteCalls + made[1]!.state.quoteCalls).toBe(1);
    expect(new Set(answers.map((answer) => answer.value.price))).toEqual(new Set([102]));
    expect(answers.every((answer) => !answer.stale)).toBe(true);
    // The process that did not load got the value from Redis.
    const after = await marketShared();
    expect(after).toBeGreaterThan(shared);
  });

  it('hands bars to another process as typed arrays, NaN and -0 included', async () => {
    const { made } = processes(2);
    const first = await made[0]!.market.getRecentDailyBars('AAPL', 60);
    const second = await made[1]!.market.getRecentDailyBars('AAPL', 60);
    expect(made[1]!.state.barsCalls).toBe(0);
    expect(second.value.close).toBeInstanceOf(Float64Array);
    expect(Array.from(second.value.close)).toEqual(Array.from(first.value.close));
    expect(Object.is(second.value.close[3], -0)).toBe(true);
    expect(Number.isNaN(second.value.close[4])).toBe(true);
    expect(second.value.candles).toEqual({ provider: 'test', range: 'ohlc', volume: 'base' });
    expect(second.fetchedAtMs).toBe(first.fetchedAtMs);
  });

  it('serves the last good value stale across processes when the upstream fails, and backs off for all', async () => {
    const { made, clock } = processes(2);
    const good = await made[0]!.market.getQuote('AAPL');
    clock.advance(MARKET_TTL_MS.quote + 1);
    made[0]!.state.fail = new ProviderError('test', 'down', { retryable: true });
    made[1]!.state.fail = new ProviderError('test', 'down', { retryable: true });
    // Process 2 never loaded this quote itself: the last good value comes from Redis.
    const stale = await made[1]!.market.getQuote('AAPL');
    expect(stale).toEqual({ value: good.value, stale: true, fetchedAtMs: good.fetchedAtMs });
    expect(made[1]!.state.quoteCalls).toBe(1);
    // Process 1, within the backoff process 2 set, serves it stale without asking the upstream.
    expect(await made[0]!.market.getQuote('AAPL')).toEqual(stale);
    expect(made[0]!.state.quoteCalls).toBe(1);
  });

  it('never serves stale data for an unknown symbol', async () => {
    const { made, clock } = processes(2);
    await made[0]!.market.getQuote('AAPL');
    clock.advance(MARKET_TTL_MS.quote + 1);
    made[1]!.state.fail = new UnknownSymbolError('AAPL');
    await expect(made[1]!.market.getQuote('AAPL')).rejects.toBeInstanceOf(UnknownSymbolError);
  });

  it('loads itself when another process holds the lock past the bounded wait', async () => {
    const { made } = processes(1, { sharedWaitMs: 50 });
    // A process that took the lock and died: the key stays locked until the lock's TTL.
    expect(await made[0]!.store.tryLock('market:quote:AAPL', 60_000)).toBeTypeOf('string');
    const answer = await made[0]!.market.getQuote('AAPL');
    expect(answer.value.price).toBe(102);
    expect(made[0]!.state.quoteCalls).toBe(1);
  });
});
