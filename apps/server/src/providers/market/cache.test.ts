import { describe, expect, it } from 'vitest';
import { FakeClock } from '../../../test/helpers';
import { createMemoryStore, type CacheStore } from '../../lib/cache-store';
import { approximateBytes, MarketCache } from './cache';
import { createCachedMarket, MARKET_TTL_MS, RECENT_DAYS } from './cached-market';
import { ProviderError, UnknownSymbolError, type Bars, type MarketData, type Quote } from './types';

describe('MarketCache', () => {
  it('makes one upstream call for 1,000 concurrent requests of one key', async () => {
    const cache = new MarketCache(new FakeClock());
    let calls = 0;
    const load = async () => {
      calls += 1;
      await new Promise((resolve) => setTimeout(resolve, 10));
      return { price: 101 };
    };
    const answers = await Promise.all(Array.from({ length: 1000 }, () => cache.get('quote:AAPL', 5000, load)));
    expect(calls).toBe(1);
    expect(answers.every((answer) => answer.value.price === 101 && !answer.stale)).toBe(true);
    expect(cache.snapshot().upstreamCalls).toBe(1);
  });

  it('serves fresh values until the TTL passes, then asks again', async () => {
    const clock = new FakeClock();
    const cache = new MarketCache(clock);
    let version = 0;
    const load = async () => ++version;
    expect((await cache.get('k', 1000, load)).value).toBe(1);
    clock.advance(999);
    expect((await cache.get('k', 1000, load)).value).toBe(1);
    clock.advance(2);
    expect((await cache.get('k', 1000, load)).value).toBe(2);
  });

  it('serves the last good value, marked stale, when the upstream fails, and backs off', async () => {
    const clock = new FakeClock();
    const cache = new MarketCache(clock, { maxEntries: 100, failureBackoffMs: 30_000 });
    let fail = false;
    let calls = 0;
    const load = async () => {
      calls += 1;
      if (fail) throw new ProviderError('finnhub', 'HTTP 503', { status: 503, retryable: true });
      return 'good';
    };
    await cache.get('k', 1000, load);
    fail = true;
    clock.advance(1500);
    const stale = await cache.get('k', 1000, load);
    expect(stale).toMatchObject({ value: 'good', stale: true });
    expect(calls).toBe(2);
    clock.advance(10_000);
    expect((await cache.get('k', 1000, load)).stale).toBe(true);
    expect(calls).toBe(2); // still backing off
    clock.advance(25_000);
    fail = false;
    expect(await cache.get('k', 1000, load)).toMatchObject({ value: 'good', stale: false });
    expect(calls).toBe(3);
  });

  it('rethrows when nothing was cached, and never serves stale data for an unknown symbol', async () => {
    const cache = new MarketCache(new FakeClock());
    await expect(cache.get('k', 1000, async () => Promise.reject(new ProviderError('x', 'down')))).rejects.toThrow('x: down');
    await expect(cache.get('u', 1000, async () => Promise.reject(new UnknownSymbolError('ZZZZ')))).rejects.toThrow('Unknown symbol: ZZZZ');
  });

  it('stays within its size bound, dropping the least recently used', async () => {
    const cache = new MarketCache(new FakeClock(), { maxEntries: 3 });
    for (const key of ['a', 'b', 'c']) await cache.get(key, 10_000, async () => key);
    await cache.get('a', 10_000, async () => 'a2'); // touch a
    await cache.get('d', 10_000, async () => 'd');
    expect(cache.snapshot().entries).toBe(3);
    let reloaded = false;
    await cache.get('b', 10_000, async () => {
      reloaded = true;
      return 'b2';
    });
    expect(reloaded).toBe(true);
    expect((await cache.get('a', 10_000, async () => 'a3')).value).toBe('a');
  });
});

describe('MarketCache memory bound', () => {
  const KB8 = () => new Float64Array(1000); // 8,000 bytes of data

  it('keeps the approximate bytes under maxBytes, dropping the least recently used', async () => {
    const cache = new MarketCache(new FakeClock(), { maxBytes: 100_000 });
    for (let k = 0; k < 40; k += 1) await cache.get(`bars:S${k}`, 60_000, async () => KB8());
    const { bytes, entries } = cache.snapshot();
    expect(bytes).toBeLessThanOrEqual(100_000);
    expect(bytes).toBeGreaterThan(100_000 - 9_000); // full, but for less than one entry
    expect(entries).toBe(Math.floor(bytes / 8_000));
    expect(cache.peek('bars:S39')).toBeDefined();
    expect(cache.peek('bars:S0')).toBeUndefined();
    // Reading an old entry makes it recent: it survives the next insertions, its neighbour does not.
    const survivor = `bars:S${40 - entries}`;
    const neighbour = `bars:S${41 - entries}`;
    await cache.peek(survivor);
    await cache.get('bars:NEW', 60_000, async () => KB8());
    expect(cache.peek(survivor)).toBeDefined();
    expect(cache.peek(neighbour)).toBeUndefined();
  });

  it('keeps what is read again through a burst of values read once (a replay), within the bound', async () => {
    const clock = new FakeClock();
    const cache = new MarketCache(clock, { maxBytes: 200_000 });
    const readOnce = async () => {
      throw new Error('kept values are not loaded again');
    };
    for (let k = 0; k < 10; k += 1) await cache.get(`bars:S${k}`, 60_000, async () => KB8());
    for (let k = 0; k < 10; k += 1) await cache.get(`bars:S${k}`, 60_000, readOnce);
    // A replay's past chains, each read once: 20 times the bound.
    for (let k = 0; k < 500; k += 1) await cache.get(`options-asof:X:${k}`, 60_000, async () => KB8());
    expect(cache.snapshot().bytes).toBeLessThanOrEqual(200_000);
    for (let k = 0; k < 10; k += 1) await cache.get(`bars:S${k}`, 60_000, readOnce);
    // A refreshed value (its TTL passed) stays protected: the next burst does not push it out either.
    clock.advance(60_001);
    for (let k = 0; k < 10; k += 1) await cache.get(`bars:S${k}`, 60_000, async () => KB8());
    for (let k = 500; k < 1000; k += 1) await cache.get(`options-asof:X:${k}`, 60_000, async () => KB8());
    for (let k = 0; k < 10; k += 1) await cache.get(`bars:S${k}`, 60_000, readOnce);
  });

  it('answers a value larger than the whole bound without keeping it', async () => {
    const cache = new MarketCache(new FakeClock(), { maxBytes: 50_000 });
    await cache.get('small', 60_000, async () => KB8());
    let loads = 0;
    const huge = async () => {
      loads += 1;
      return new Float64Array(10_000);
    };
    expect((await cache.get('huge', 60_000, huge)).value).toHaveLength(10_000);
    expect(cache.snapshot()).toMatchObject({ entries: 1 });
    expect(cache.peek('small')).toBeDefined();
    await cache.get('huge', 60_000, huge);
    expect(loads).toBe(2);
  });

  it('charges typed arrays their length and plain values their strings and numbers', () => {
    const n = 500;
    const bars = barsOf(Array.from({ length: n }, (_, i) => i * 86_400));
    const data = 6 * 8 * n;
    expect(approximateBytes(bars)).toBeGreaterThanOrEqual(data);
    expect(approximateBytes(bars)).toBeLessThan(data + 1_000);
    const article = { id: 'a1', headline: 'x'.repeat(100), summary: 'y'.repeat(400), datetime: 1_700_000_000, url: 'https://example.com/a1' };
    const news = Array.from({ length: 200 }, () => ({ ...article }));
    // As V8 keeps them: one byte a Latin-1 character, two beyond; property names shared by the shape.
    expect(approximateBytes(news)).toBeGreaterThan(200 * 500);
    expect(approximateBytes(news)).toBeLessThan(200 * 500 * 1.5);
    expect(approximateBytes('é'.repeat(1000))).toBeLessThan(1100);
    expect(approximateBytes('€'.repeat(1000))).toBeGreaterThanOrEqual(2000);
    // A view is charged its own length, not its buffer's.
    expect(approximateBytes(new Float64Array(1000).subarray(0, 10))).toBeLessThan(200);
  });

  it('peek answers a fresh value or the load in flight, never loads', async () => {
    const clock = new FakeClock();
    const cache = new MarketCache(clock);
    expect(cache.peek('k')).toBeUndefined();
    let calls = 0;
    let release: () => void = () => undefined;
    const loading = cache.get('k', 1000, async () => {
      calls += 1;
      await new Promise<void>((resolve) => (release = resolve));
      return 'v';
    });
    const joined = cache.peek<string>('k');
    expect(joined).toBeDefined();
    release();
    expect((await joined!).value).toBe('v');
    await loading;
    expect((await cache.peek<string>('k')!).value).toBe('v');
    clock.advance(1000);
    expect(cache.peek('k')).toBeUndefined();
    expect(calls).toBe(1);
  });

  it('answers a value not to keep once for the requests in flight, and keeps it neither here nor in a shared store', async () => {
    const written: string[] = [];
    const store: CacheStore = { ...createMemoryStore(), shared: true, setBytes: async (key) => void written.push(key) };
    const cache = new MarketCache(new FakeClock(), { store });
    let calls = 0;
    const load = async () => {
      calls += 1;
      await new Promise((resolve) => setTimeout(resolve, 5));
      return { chain: calls };
    };
    const answers = await Promise.all(Array.from({ length: 10 }, () => cache.get('options-asof:X:2026-10-30:*', 5000, load, { keep: false })));
    expect(answers.map((answer) => answer.value.chain)).toEqual(Array(10).fill(1));
    expect(cache.snapshot()).toMatchObject({ entries: 0, bytes: 0 });
    expect(written).toEqual([]);
    expect((await cache.get('options-asof:X:2026-10-30:*', 5000, load, { keep: false })).value.chain).toBe(2);
    expect((await cache.get('kept', 5000, load)).value.chain).toBe(3);
    expect(cache.snapshot().entries).toBe(1);
  });
});

// ---- CachedMarket: daily bars per symbol, not per range -----------------------------------------

const DAY = 86_400;

function barsOf(time: number[]): Bars {
  const column = (f: (t: number, i: number) => number) => Float64Array.from(time, f);
  return {
    symbol: 'AAPL',
    time: Float64Array.from(time),
    open: column((_, i) => 100 + i),
    high: column((_, i) => 101 + i),
    low: column((_, i) => 99 + i),
    close: column((_, i) => 100.5 + i),
    volume: column(() => 1e6),
  };
}

/** A source with one daily bar a day from 2019-01-01 through today, counting its calls. */
function countingSource(clock: FakeClock) {
  const calls = { dailyBars: 0, quote: 0, ranges: [] as Array<[number, number]> };
  let memo: { today: number; bars: Bars } | undefined;
  const history = () => {
    const today = Math.floor(clock.nowMs() / 1000 / DAY) * DAY;
    if (memo?.today !== today) {
      const days: number[] = [];
      for (let t = Date.UTC(2019, 0, 1) / 1000; t <= today; t += DAY) days.push(t);
      memo = { today, bars: barsOf(days) };
    }
    return memo.bars;
  };
  /** The bars in [from, to], copied (as a source answers). */
  const bars = (from: number, to: number): Bars => {
    const all = history();
    let start = 0;
    while (start < all.time.length && all.time[start]! < from) start += 1;
    let end = start;
    while (end < all.time.length && all.time[end]! <= to) end += 1;
    const take = (array: Float64Array) => array.slice(start, end);
    return { symbol: 'AAPL', time: take(all.time), open: take(all.open), high: take(all.high), low: take(all.low), close: take(all.close), volume: take(all.volume) };
  };
  const unused = async (): Promise<never> => {
    throw new Error('not used by this test');
  };
  const source: MarketData = {
    source: 'file',
    async getDailyBars(symbol, from, to) {
      calls.dailyBars += 1;
      calls.ranges.push([from, to]);
      await new Promise((resolve) => setTimeout(resolve, 5));
      if (symbol !== 'AAPL') throw new UnknownSymbolError(symbol);
      return bars(from, to);
    },
    async getQuote(symbol): Promise<Quote> {
      calls.quote += 1;
      await new Promise((resolve) => setTimeout(resolve, 5));
      return { symbol, price: 101, change: 1, percentChange: 1, previousClose: 100, open: 100, high: 102, low: 99, volume: 1e6, timestamp: clock.nowMs() / 1000 };
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
  return { source, calls, bars };
}

/** Same length and the same numbers, index by index (toEqual on 1,000 pairs of typed arrays is slow). */
function sameValues(a: Float64Array, b: Float64Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i += 1) if (a[i] !== b[i]) return false;
  return true;
}

/** `count` distinct [from, to] pairs (Unix seconds) with from in [earliest, now], seeded. */
function ranges(count: number, nowSeconds: number, earliest: number): Array<[number, number]> {
  let state = 7;
  const next = () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 4_294_967_296;
  };
  const seen = new Set<string>();
  const out: Array<[number, number]> = [];
  while (out.length < count) {
    const from = Math.floor(earliest + next() * (nowSeconds - earliest));
    const to = Math.floor(from + next() * (nowSeconds + DAY - from));
    if (seen.has(`${from}:${to}`)) continue;
    seen.add(`${from}:${to}`);
    out.push([from, to]);
  }
  return out;
}

describe('CachedMarket daily bars', () => {
  it('makes one upstream call for 1,000 different recent from/to requests of one symbol, each answered exactly', async () => {
    const clock = new FakeClock();
    const { source, calls, bars } = countingSource(clock);
    const market = createCachedMarket(source, clock);
    const now = clock.nowMs() / 1000;
    const asked = ranges(1000, now, now - RECENT_DAYS * DAY);
    const answers = await Promise.all(asked.map(([from, to]) => market.getDailyBars('aapl', from, to)));
    expect(calls.dailyBars).toBe(1);
    answers.forEach((answer, k) => {
      const [from, to] = asked[k]!;
      expect(answer.stale).toBe(false);
      const expected = bars(from, to);
      expect(sameValues(answer.value.time, expected.time), `${from}..${to}`).toBe(true);
      expect(sameValues(answer.value.close, expected.close)).toBe(true);
    });
    // One entry in the cache, the size of one history, whatever the 1,000 ranges were.
    const { entries, bytes } = market.cache.snapshot();
    expect(entries).toBe(1);
    expect(bytes).toBeLessThan(approximateBytes(bars(now - (RECENT_DAYS + 10) * DAY, now + DAY)) + 1_000);
  });

  it('makes one upstream call for 1,000 different from/to over seven years once the whole history is asked', async () => {
    const clock = new FakeClock();
    const { source, calls, bars } = countingSource(clock);
    const market = createCachedMarket(source, clock);
    const now = clock.nowMs() / 1000;
    const asked = ranges(1000, now, Date.UTC(2018, 0, 1) / 1000);
    asked.unshift([Date.UTC(2019, 5, 1) / 1000, Date.UTC(2020, 5, 1) / 1000]); // the first asks before the recent window
    const answers = await Promise.all(asked.map(([from, to]) => market.getDailyBars('AAPL', from, to)));
    expect(calls.dailyBars).toBe(1);
    expect(calls.ranges[0]![0]).toBe(0); // the whole history
    answers.forEach((answer, k) => expect(sameValues(answer.value.time, bars(...asked[k]!).time), asked[k]!.join('..')).toBe(true));
    // Recent windows are served from the whole history while it is fresh, without a second call.
    expect((await market.getRecentDailyBars('AAPL', 200)).value.time.length).toBeGreaterThan(130);
    expect(calls.dailyBars).toBe(1);
    expect(market.cache.snapshot().entries).toBe(1);
  });

  it('keeps at most two bars values a symbol in any order, and asks again once per freshness window', async () => {
    const clock = new FakeClock();
    const { source, calls } = countingSource(clock);
    const market = createCachedMarket(source, clock);
    const now = clock.nowMs() / 1000;
    const asked = ranges(1000, now, Date.UTC(2018, 0, 1) / 1000);
    asked.sort(([a], [b]) => b - a); // the most recent first: the recent window loads, then the whole history
    for (const [from, to] of asked) await market.getDailyBars('AAPL', from, to);
    expect(calls.dailyBars).toBe(2);
    expect(market.cache.snapshot().entries).toBe(2);
    clock.advance(MARKET_TTL_MS.dailyBars);
    await Promise.all(asked.map(([from, to]) => market.getDailyBars('AAPL', from, to)));
    expect(calls.dailyBars).toBeLessThanOrEqual(4);
    expect(market.cache.snapshot().entries).toBeLessThanOrEqual(2);
  });

  it('serves getRecentDailyBars of more than the recent window from the whole history', async () => {
    const clock = new FakeClock();
    const { source, calls } = countingSource(clock);
    const market = createCachedMarket(source, clock);
    const recent = await market.getRecentDailyBars('AAPL', 120);
    // The clock is 15:00 UTC and bars start at 00:00 UTC: the last 120 days hold 120 daily bars.
    expect(recent.value.time.length).toBe(120);
    const long = await market.getRecentDailyBars('AAPL', 1200);
    expect(long.value.time.length).toBe(1200);
    expect(calls.ranges.map(([from]) => from === 0)).toEqual([false, true]);
    await expect(market.getDailyBars('ZZZZ', 0, 1)).rejects.toThrow('Unknown symbol: ZZZZ');
  });

  it('makes one upstream call for 1,000 concurrent quote requests', async () => {
    const clock = new FakeClock();
    const { source, calls } = countingSource(clock);
    const market = createCachedMarket(source, clock);
    const answers = await Promise.all(Array.from({ length: 1000 }, (_, k) => market.getQuote(k % 2 === 0 ? 'AAPL' : ' aapl ')));
    expect(calls.quote).toBe(1);
    expect(answers.every((answer) => answer.value.price === 101)).toBe(true);
  });
});

describe('CachedMarket option chains as of a session', () => {
  it('are offered only when the source keeps them, cached per symbol, session and expiry', async () => {
    const clock = new FakeClock();
    const { source } = countingSource(clock);
    expect(createCachedMarket(source, clock).getOptionChainAsOf).toBeUndefined();
    const asked: string[] = [];
    const keeping: MarketData = {
      ...source,
      async getOptionChainAsOf(symbol, date, expiration) {
        asked.push(`${symbol} ${date} ${expiration ?? '*'}`);
        return date === '2026-10-30' ? { symbol, underlyingPrice: 100, expirations: ['2026-12-18'], contracts: [] } : null;
      },
    };
    const market = createCachedMarket(keeping, clock);
    const answers = await Promise.all([market.getOptionChainAsOf!('aapl', '2026-10-30'), market.getOptionChainAsOf!('AAPL', '2026-10-30'), market.getOptionChainAsOf!('AAPL', '2026-10-31'), market.getOptionChainAsOf!('AAPL', '2026-10-30', '2026-12-18')]);
    expect(answers.map((answer) => answer.value?.underlyingPrice ?? null)).toEqual([100, 100, null, 100]);
    expect(asked).toEqual(['AAPL 2026-10-30 *', 'AAPL 2026-10-31 *', 'AAPL 2026-10-30 2026-12-18']);
  });

  it("keep the current session's chain, not a past session's (a replay reads each once)", async () => {
    // FakeClock: Monday 2026-11-02, 10:00 New York (the session is open).
    const clock = new FakeClock();
    const { source } = countingSource(clock);
    const asked: string[] = [];
    const keeping: MarketData = {
      ...source,
      async getOptionChainAsOf(symbol, date) {
        asked.push(`${symbol} ${date}`);
        return { symbol, underlyingPrice: 100, expirations: ['2026-12-18'], contracts: [] };
      },
    };
    const market = createCachedMarket(keeping, clock);
    for (let round = 0; round < 2; round += 1) {
      await market.getOptionChainAsOf!('AAPL', '2026-10-30');
      await market.getOptionChainAsOf!('AAPL', '2026-11-02');
    }
    expect(asked).toEqual(['AAPL 2026-10-30', 'AAPL 2026-11-02', 'AAPL 2026-10-30']);
    expect(market.cache.snapshot().entries).toBe(1);
  });
});

describe('MarketCache on a shared store that fails (Redis down)', () => {
  it('loads on its own, keeps single flight, and still serves stale on error', async () => {
    const down = () => Promise.reject(new Error('Redis is down'));
    const store: CacheStore = { ...createMemoryStore(), shared: true, getBytes: down, setBytes: down, tryLock: down, unlock: down };
    const clock = new FakeClock();
    const cache = new MarketCache(clock, { store });
    let calls = 0;
    let fail = false;
    const load = async () => {
      calls += 1;
      await new Promise((resolve) => setTimeout(resolve, 5));
      if (fail) throw new ProviderError('test', 'down', { retryable: true });
      return { price: 101 };
    };
    const answers = await Promise.all(Array.from({ length: 100 }, () => cache.get('quote:AAPL', 1_000, load)));
    expect(calls).toBe(1);
    expect(answers.every((answer) => answer.value.price === 101)).toBe(true);
    clock.advance(1_001);
    fail = true;
    expect(await cache.get('quote:AAPL', 1_000, load)).toMatchObject({ value: { price: 101 }, stale: true });
  });
});
