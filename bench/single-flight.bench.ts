// Single flight on the path the API uses: 1,000 concurrent requests for one quote through
// CachedMarket.getQuote (cache + single-flight in front of the source), against a counting fake
// upstream that takes 20 ms to answer. Budget (docs/design.md): one upstream call.
// Also: 1,000 different from/to daily-bar ranges of one symbol (api/rsi lets users choose them),
// which the cache serves from one history per symbol.
import { createCachedMarket } from '../apps/server/src/providers/market/cached-market';
import type { Bars, MarketData, Quote } from '../apps/server/src/providers/market/types';

const DAY = 86_400;

function countingUpstream(nowSeconds: number) {
  const calls = { quote: 0, dailyBars: 0 };
  const unused = async (): Promise<never> => {
    throw new Error('not used by this bench');
  };
  const slow = () => new Promise((resolve) => setTimeout(resolve, 20));
  const source: MarketData = {
    source: 'simulated',
    async getQuote(symbol): Promise<Quote> {
      calls.quote += 1;
      await slow();
      return { symbol, price: 101, change: 1, percentChange: 1, previousClose: 100, open: 100, high: 102, low: 99, volume: 1e6, timestamp: nowSeconds };
    },
    async getDailyBars(symbol, from, to): Promise<Bars> {
      calls.dailyBars += 1;
      await slow();
      const first = Math.max(from, nowSeconds - 3000 * DAY);
      const n = Math.max(0, Math.floor((Math.min(to, nowSeconds) - first) / DAY) + 1);
      const column = (f: (i: number) => number) => Float64Array.from({ length: n }, (_, i) => f(i));
      return { symbol, time: column((i) => first + i * DAY), open: column(() => 100), high: column(() => 101), low: column(() => 99), close: column(() => 100), volume: column(() => 1e6) };
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
  return { source, calls };
}

export async function run(): Promise<string[][]> {
  const clock = { nowMs: () => Date.now() };
  const nowSeconds = Math.floor(clock.nowMs() / 1000);

  const quotes = countingUpstream(nowSeconds);
  const market = createCachedMarket(quotes.source, clock);
  const start = performance.now();
  const answers = await Promise.all(Array.from({ length: 1000 }, () => market.getQuote('AAPL')));
  const elapsed = performance.now() - start;
  if (!answers.every((answer) => answer.value.price === 101)) throw new Error('a quote request got a wrong answer');

  const bars = countingUpstream(nowSeconds);
  const barsMarket = createCachedMarket(bars.source, clock);
  let state = 11;
  const next = () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 4_294_967_296;
  };
  const rangeStart = performance.now();
  await Promise.all(
    Array.from({ length: 1000 }, () => {
      const from = nowSeconds - Math.floor(next() * 700 * DAY);
      return barsMarket.getDailyBars('AAPL', from, from + Math.floor(next() * (nowSeconds - from)));
    }),
  );
  const rangeElapsed = performance.now() - rangeStart;

  return [
    [
      '1,000 concurrent identical quotes via CachedMarket.getQuote',
      `${quotes.calls.quote} upstream call(s), ${elapsed.toFixed(1)} ms`,
      '1 call',
      quotes.calls.quote === 1 ? 'ok' : 'OVER',
    ],
    [
      '1,000 different recent from/to daily-bar ranges, one symbol',
      `${bars.calls.dailyBars} upstream call(s), ${barsMarket.cache.snapshot().entries} cache entr${barsMarket.cache.snapshot().entries === 1 ? 'y' : 'ies'}, ${rangeElapsed.toFixed(1)} ms`,
      '1 call',
      bars.calls.dailyBars === 1 ? 'ok' : 'OVER',
    ],
  ];
}
